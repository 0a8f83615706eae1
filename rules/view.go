package rules

// ViewAs returns v as a game's own view type T, whether it holds a T or a non-nil *T.
func ViewAs[T any](v View) (T, bool) {
	switch x := any(v).(type) {
	case T:
		return x, true
	case *T:
		if x != nil {
			return *x, true
		}
	}
	var zero T
	return zero, false
}
