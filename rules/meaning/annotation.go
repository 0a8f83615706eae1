// Package meaning is the bots' model of what the games' words, topics and pictures mean:
// the content annotations (attribute values and associated words, written as sidecar
// files beside each deck in assets/content), the criteria defined over those attributes,
// and each bot's temperament, its own private noise on the model.
//
// Like every package under rules it is pure: it parses bytes the lobby loaded and draws
// randomness only from the seeds it is given.
package meaning

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxValue is the top of every attribute's scale: 0 is "not at all" (or tiny, or free),
// 4 is "very much" (or huge, or very expensive).
const MaxValue = 4

// MaxWeight bounds a criterion's weight on one attribute.
const MaxWeight = 3

// Attributes lists the attributes an annotation may use, each on a 0-MaxValue scale; an
// attribute an entry leaves out is 0. The list is closed so that a typo in the content
// is an error rather than a silent zero.
var Attributes = []Attribute{
	{"size", "how big: 0 fits in a pocket, 2 carried in both arms, 3 furniture or a car, 4 a building or bigger"},
	{"weight", "how heavy, on the same steps as size"},
	{"price", "what it costs: 0 pennies, 1 pocket money, 2 a nice present, 3 a big purchase, 4 a fortune"},
	{"old", "how old-fashioned or old"},
	{"tech", "how much it is a machine, electronic or technical"},
	{"danger", "how dangerous"},
	{"scary", "how frightening or creepy"},
	{"noise", "how loud"},
	{"smell", "how pleasant and strong its smell"},
	{"stink", "how bad its smell"},
	{"mess", "how messy or sticky"},
	{"fragile", "how easily it breaks"},
	{"fun", "how much fun"},
	{"useful", "how useful and practical"},
	{"kids", "how much it belongs to children"},
	{"romance", "how romantic"},
	{"fancy", "how elegant, luxurious, posh"},
	{"cosy", "how cosy and comforting"},
	{"soft", "how soft"},
	{"weird", "how odd, surprising or funny-strange"},
	{"outdoor", "how much it belongs outdoors"},
	{"food", "how much it is food or about eating"},
	{"sport", "how physical, how much effort"},
	{"calm", "how calm and relaxing"},
	{"mind", "how much it takes thinking or knowledge"},
	{"magic", "how magical, mysterious, fairy-tale"},
	{"nature", "how natural, close to plants and animals"},
	{"art", "how artistic, colourful, creative"},
	{"summer", "how much it belongs to summer and heat"},
	{"winter", "how much it belongs to winter and cold"},
	{"festive", "how festive, a celebration"},
	{"common", "how common, found everywhere"},
	{"rare", "how rare or special"},
	{"social", "how much it is done with other people"},
	{"chore", "how much it is a duty or a bother"},
	{"wait", "how long it takes, how much waiting"},
	{"shiny", "how shiny or sparkling"},
	{"cute", "how cute"},
	{"trendy", "how fashionable right now"},
}

// Attribute is one scale of the meaning model.
type Attribute struct {
	Name string
	Help string // what 0 to MaxValue measure
}

// attrIndex finds an attribute's place in Values.
var attrIndex = map[string]int{}

func init() {
	for i, a := range Attributes {
		attrIndex[a.Name] = i
	}
}

// NumAttributes is the number of attributes, the length of Values (at most 64, for Entry.given); a test checks it
// against Attributes.
const NumAttributes = 39

// Values are an entry's attribute values (or a criterion's signed weights), in the
// order of Attributes: an array, so that the hundreds of entries of a deck parse
// without a map each.
type Values [NumAttributes]int8

// Get is the value of the attribute named name (0 if it is not one).
func (v Values) Get(name string) int {
	if i, ok := attrIndex[name]; ok {
		return int(v[i])
	}
	return 0
}

// ErrAnnotation reports an annotation file that cannot be used.
var ErrAnnotation = errors.New("meaning: bad annotation")

// Entry is one annotated deck entry: its attribute values (or, for a criterion, its
// signed weights) and the words it brings to mind.
type Entry struct {
	Name  string
	Attrs Values
	Words []string // lower-case single words
	// Weights: the Attrs are a criterion's signed weights ("+price2"), not values.
	Weights bool
	Line    int    // line in its file, for error messages
	given   uint64 // a bit per attribute named so far, to refuse repeats
}

// Annotations are a deck's entries by Key of their name.
type Annotations map[string]Entry

// Key is how names are matched: lower case, spaces trimmed.
func Key(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// Named is how many attributes the entry's line names (a value of 0 included).
func (e Entry) Named() int { return bits.OnesCount64(e.given) }

// Lookup finds the entry of name.
func (a Annotations) Lookup(name string) (Entry, bool) {
	e, ok := a[Key(name)]
	return e, ok
}

// Parse reads an annotation file: one entry a line, "name | item item ...", where an
// item is an attribute and its value ("price4"), a signed weight ("+price2", "-useful1",
// for criteria) or a plain associated word. Blank lines and lines starting with '#' are
// skipped. Unknown attributes, values out of range and repeated names are errors.
func Parse(name string, b []byte) (Annotations, error) {
	if !utf8.Valid(b) {
		return nil, fmt.Errorf("%w: %s is not UTF-8", ErrAnnotation, name)
	}
	out := make(Annotations, bytes.Count(b, []byte("\n"))+1)
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, items, ok := strings.Cut(line, "|")
		if !ok || strings.TrimSpace(key) == "" {
			return nil, fmt.Errorf("%w: %s line %d: want \"name | items\"", ErrAnnotation, name, n)
		}
		e := Entry{Name: strings.TrimSpace(key), Line: n}
		for _, it := range strings.Fields(items) {
			if err := e.add(it); err != nil {
				return nil, fmt.Errorf("%w: %s line %d (%s): %v", ErrAnnotation, name, n, e.Name, err)
			}
		}
		if prev, dup := out[Key(e.Name)]; dup {
			return nil, fmt.Errorf("%w: %s line %d: %q repeats line %d", ErrAnnotation, name, n, e.Name, prev.Line)
		}
		out[Key(e.Name)] = e
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrAnnotation, name, err)
	}
	return out, nil
}

// add reads one item into e.
func (e *Entry) add(it string) error {
	last := rune(it[len(it)-1])
	if !unicode.IsDigit(last) {
		w := strings.ToLower(it)
		if strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' && r != '\'' }) >= 0 {
			return fmt.Errorf("word %q is not a single word", it)
		}
		if slices.Contains(e.Words, w) {
			return fmt.Errorf("word %q is listed twice", w)
		}
		e.Words = append(e.Words, w)
		return nil
	}
	sign, body := 0, it
	switch it[0] {
	case '+':
		sign, body = 1, it[1:]
	case '-':
		sign, body = -1, it[1:]
	}
	i := strings.IndexFunc(body, unicode.IsDigit)
	attr, num := body[:i], body[i:]
	ai, known := attrIndex[attr]
	if !known {
		return fmt.Errorf("unknown attribute %q", attr)
	}
	if e.given&(1<<ai) != 0 {
		return fmt.Errorf("attribute %q is given twice", attr)
	}
	first := e.given == 0
	e.given |= 1 << ai
	v, err := strconv.Atoi(num)
	if err != nil {
		return fmt.Errorf("bad value %q", it)
	}
	if !first && e.Weights != (sign != 0) {
		return fmt.Errorf("%q mixes signed weights and plain values", it)
	}
	e.Weights = sign != 0
	if sign == 0 {
		if v > MaxValue {
			return fmt.Errorf("%s is %d, at most %d", attr, v, MaxValue)
		}
		e.Attrs[ai] = int8(v)
		return nil
	}
	if v < 1 || v > MaxWeight {
		return fmt.Errorf("weight %q must be 1 to %d", it, MaxWeight)
	}
	e.Attrs[ai] = int8(sign * v)
	return nil
}

// Covers reports the first of names without an entry, and the first entry that is none of
// names, so a sidecar file keeps step with its deck.
func (a Annotations) Covers(names []string) error {
	want := map[string]bool{}
	for _, n := range names {
		want[Key(n)] = true
		if _, ok := a[Key(n)]; !ok {
			return fmt.Errorf("%w: %q has no annotation", ErrAnnotation, n)
		}
	}
	for k, e := range a {
		if !want[k] {
			return fmt.Errorf("%w: line %d annotates %q, which is not in the deck", ErrAnnotation, e.Line, e.Name)
		}
	}
	return nil
}

// Find reads the entry of name from an annotation file without parsing the rest: a bot
// needs a handful of a deck's entries per game, and every bot of every game reads them
// (Parse, which checks the whole file, is for the content tests). A line that does not
// parse is as good as missing.
func Find(b []byte, name string) (Entry, bool) {
	name = strings.TrimSpace(name)
	for n := 1; len(b) > 0; n++ {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		key, items, ok := bytes.Cut(line, []byte("|"))
		if !ok || !strings.EqualFold(string(bytes.TrimSpace(key)), name) || bytes.HasPrefix(bytes.TrimSpace(line), []byte("#")) {
			continue
		}
		e := Entry{Name: name, Line: n}
		for _, it := range strings.Fields(string(items)) {
			if e.add(it) != nil {
				return Entry{}, false
			}
		}
		return e, true
	}
	return Entry{}, false
}
