package rules

import (
	"encoding/json"
	"fmt"
)

// DecodeViewAs is a Spec.DecodeView for a game whose views are values of type T: the
// views are plain structs that marshal to JSON, so decoding one is unmarshalling it.
func DecodeViewAs[T View](data []byte) (View, error) {
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("decode view: %w", err)
	}
	return v, nil
}
