package meaning

// Fit is how much e fits criterion c, whose Attrs are signed weights: the weighted mean
// of e's attributes, on the attributes' own 0-MaxValue scale (lower when c counts an
// attribute against). Only differences between fits mean anything.
func Fit(e, c Entry) float64 {
	sum, total := 0.0, 0.0
	for i, w := range c.Attrs {
		sum += float64(int(w) * int(e.Attrs[i]))
		total += float64(abs(int(w)))
	}
	if total == 0 {
		return 0
	}
	return sum / total
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
