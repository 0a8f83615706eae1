package meaning

// Fit is how much e fits criterion c, whose Attrs are signed weights: the weighted mean
// of e's attributes, on the attributes' own 0-MaxValue scale (lower when c counts an
// attribute against). Only differences between fits mean anything.
func Fit(e, c Entry) float64 {
	sum, total := 0.0, 0.0
	for attr, w := range c.Attrs {
		sum += float64(w * e.Attrs[attr])
		total += float64(abs(w))
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
