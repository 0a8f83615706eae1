// Package packtest holds content packs for tests, one per kind and in several languages,
// each a valid file in its kind's built-in format. Only tests import it.
package packtest

import (
	"fmt"
	"strings"
)

// GermanWords is a Quadrant word pack in German: umlauts, ß and capitalised nouns.
const GermanWords = `# Quadrant: Wörter aus dem Alltag
Apfel
Äpfel
Brötchen
Fußball
Straßenbahn
Kühlschrank
Regenschirm
Schlüssel
Zahnbürste
Gießkanne
Löffel
Mülleimer
Bücherregal
Frühstücksei
Hängematte
Glühbirne
`

// JapaneseWords is a Quadrant word pack in Japanese: kanji, hiragana and katakana,
// which take two columns each on a terminal.
const JapaneseWords = `# クアドラント：日本語の言葉
猫
犬
自転車
富士山
寿司
傘
電車
ラーメン
折り紙
桜
新幹線
おにぎり
カメラ
時計
てぶくろ
たこ焼き
`

// Marker is in every generated entry, so a test can tell pack content in a view.
const Marker = "Ü"

// Topics is a Top Five pack of n topics, each holding Marker.
func Topics(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "Übung Nummer %d\n", i+1)
	}
	return b.String()
}

// Questions is a Foresight pack of n questions in French, each holding Marker in its
// choices, alternating the family and adult decks.
func Questions(n int) string {
	var b strings.Builder
	for i := range n {
		deck := "family"
		if i%4 == 3 {
			deck = "adult"
		}
		fmt.Fprintf(&b, "%s | Préférez-vous le café ou le thé, matin numéro %d ? | café Ü | thé | ni l'un ni l'autre\n", deck, i+1)
	}
	return b.String()
}

// Pictures is a Fingertip pack of n pictures, each with its own art and an alt text
// holding Marker.
func Pictures(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "== Ü picture number %d\nink base=FFD75F\n+--------+\n|  %4d  |\n+--------+\n\n", i+1, i+1)
	}
	return b.String()
}

// Illustrations is a Tall Tale pack of perColour illustrations of each colour, with
// Spanish names (accents and ñ) and their forbidden forms.
func Illustrations(perColour int) string {
	var b strings.Builder
	for _, c := range []string{"red", "blue", "green", "yellow"} {
		fmt.Fprintf(&b, "[%s]\n", c)
		for i := range perColour {
			fmt.Fprintf(&b, "ñandú %s%d | (o>%d | ñandúes %s%d\n", c[:1], i+1, i%10, c[:1], i+1)
		}
	}
	return b.String()
}
