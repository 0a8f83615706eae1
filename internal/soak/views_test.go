package soak

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"parlor/rules"
	"parlor/rules/fingertip"
	"parlor/rules/foresight"
	"parlor/rules/quadrant"
	"parlor/rules/talltale"
	"parlor/rules/topfive"
)

// sent is one action a player sent, with the rounds it may have been taken in: the
// server takes an action in the round it is at, which may be later than the one the
// player's view showed when it sent it (a view on its way, a phase that timed out).
type sent struct {
	round   int // the round the seat's view showed when it was sent
	upTo    int // the round of the first view after its answer (or its connection's end); 0 until then
	done    bool
	action  any
	outcome Outcome
	// carried: sent in the last game and not answered when the next began; it may have
	// been taken by either game, so it is never surely in one.
	carried bool
	answer  string // a refusal's code and words, for a failure's report
}

// in reports whether s may have been taken in round, and whether surely in it.
func (s *sent) in(round int) (maybe, surely bool) {
	maybe = s.round <= round && (s.upTo == 0 || round <= s.upTo)
	return maybe, maybe && !s.carried && s.round == round && s.upTo == round
}

// sentAround shows a seat's actions that may belong to the rounds next to round.
func sentAround(mine []*sent, round int) string {
	var b strings.Builder
	for _, s := range mine {
		if s.round < round-1 || s.round > round+1 {
			continue
		}
		fmt.Fprintf(&b, "\n    rounds %d..%d %s: %s", s.round, s.upTo, s.outcome, jsonOf(s.action))
		if s.answer != "" {
			fmt.Fprintf(&b, " (%s)", s.answer)
		}
	}
	return b.String()
}

// revealCheck compares a seat's view with the actions the seat was told "ok" for; the
// round it checked, or 0 while the view shows no finished round, and what does not agree.
// Each game's check holds two things at the end of a round: what the view reveals as the
// seat's own submission is the seat's last acknowledged one of that round (or one sent
// after it that got no answer, which may have been applied), and the round's scores
// follow from what the view reveals, by the game's own scoring functions.
type revealCheck func(seat int, v rules.View, mine []*sent) (round int, err error)

// revealChecks are the five games' checks.
var revealChecks = map[string]revealCheck{
	topfive.ID:   topFiveReveal,
	quadrant.ID:  quadrantReveal,
	fingertip.ID: fingertipReveal,
	foresight.ID: foresightReveal,
	talltale.ID:  tallTaleReveal,
}

// tried is one of a seat's actions of a round as the game's type, with whether it was
// acknowledged and surely taken in that round (else it got no answer, or may have been
// taken in another round, and may or may not be in this one); refused ones are left out.
type tried[T any] struct {
	a   T
	ack bool
}

// actionsOf are the seat's actions of type typ that may have been taken in round,
// decoded as T, in the order sent, without the refused ones.
func actionsOf[T any](mine []*sent, round int, typ string) []tried[T] {
	var out []tried[T]
	for _, s := range mine {
		maybe, surely := s.in(round)
		if !maybe || s.outcome == Refused {
			continue
		}
		b, err := json.Marshal(s.action)
		if err != nil {
			continue
		}
		var head struct {
			Type string `json:"type"`
		}
		var a T
		if json.Unmarshal(b, &head) != nil || head.Type != typ || json.Unmarshal(b, &a) != nil {
			continue
		}
		out = append(out, tried[T]{a: a, ack: s.outcome == OK && surely})
	}
	return out
}

// lastOf are the submissions a view may show for a game where a submission stands (or
// replaces the one before): the last acknowledged one and any sent after it that got no
// answer; none is possible only when none was acknowledged.
func lastOf[T any](ts []tried[T]) (could []T, none bool) {
	none = true
	for _, t := range ts {
		if t.ack {
			could, none = could[:0], false
		}
		could = append(could, t.a)
	}
	return could, none
}

// oneOf says whether got is one of could (by eq), or may be nothing when none.
func oneOf[T any](got T, nothing bool, could []T, none bool, eq func(a, b T) bool) bool {
	if nothing {
		return none
	}
	return slices.ContainsFunc(could, func(c T) bool { return eq(c, got) })
}

// seq says whether got is the seat's acknowledged actions in order, with any of the
// unanswered ones among them where they were sent: for actions that add up (tokens).
func seq[T comparable](ts []tried[T], got []T) bool {
	if len(ts) == 0 {
		return len(got) == 0
	}
	if len(got) > 0 && ts[0].a == got[0] && seq(ts[1:], got[1:]) {
		return true
	}
	return !ts[0].ack && seq(ts[1:], got)
}

// topFiveReveal: once a round's reveal is complete (its tally is in), the ranks and the
// marker it lists for the seat are those of the seat's last acknowledged ranking of that
// round, or of one sent later that got no answer (it may have been applied); none at all
// (every rank 0, out of time) only when no ranking of the seat's was acknowledged. The
// tally follows from the revealed rankings: each Guesser's line is topfive.ScoreGuess of
// its ranking against the Player of Honour's, the Player of Honour scores as the best
// Guesser, a Guesser who ran out of time scores 0, a forfeited round scores nothing.
func topFiveReveal(seat int, view rules.View, mine []*sent) (int, error) {
	v, ok := rules.ViewAs[topfive.View](view)
	if !ok || v.Tally == nil || len(v.Reveal) == 0 {
		return 0, nil
	}
	n := len(v.Names)
	ranks := make([][]int, n) // per seat, the rank given to each topic
	marker := make([]int, n)  // per seat, the topic with its marker; -1 none
	for s := range n {
		ranks[s], marker[s] = make([]int, len(v.Topics)), -1
	}
	for _, row := range v.Reveal {
		if row.Topic < 0 || row.Topic >= len(v.Topics) {
			return v.Round, fmt.Errorf("the reveal names topic %d of %d", row.Topic, len(v.Topics))
		}
		if v.Honour >= 0 && v.Honour < n {
			ranks[v.Honour][row.Topic] = row.Rank
		}
		for _, g := range row.Guesses {
			if g.Seat < 0 || g.Seat >= n {
				return v.Round, fmt.Errorf("the reveal names seat %d of %d", g.Seat, n)
			}
			ranks[g.Seat][row.Topic] = g.Rank
			if g.Marker {
				marker[g.Seat] = row.Topic
			}
		}
	}
	var errs []error
	type ranking struct {
		ranks  []int
		marker int
	}
	var rs []tried[ranking]
	for _, r := range actionsOf[topfive.Rank](mine, v.Round, topfive.TypeRank) {
		m := -1
		if r.a.Marker != nil {
			m = *r.a.Marker
		}
		rs = append(rs, tried[ranking]{a: ranking{r.a.Ranks, m}, ack: r.ack})
	}
	could, none := lastOf(rs)
	got := ranking{ranks[seat], marker[seat]}
	if seat == v.Honour {
		for i := range could {
			could[i].marker = -1 // the Player of Honour's marker is not in the reveal
		}
	}
	eq := func(a, b ranking) bool { return slices.Equal(a.ranks, b.ranks) && a.marker == b.marker }
	if !oneOf(got, slices.Equal(got.ranks, make([]int, len(got.ranks))), could, none, eq) {
		errs = append(errs, fmt.Errorf("round %d's reveal gives seat %d the ranks %v, marker %d; its rankings sent that round (the last acknowledged one and any unanswered after it): %v",
			v.Round, seat, got.ranks, got.marker, could))
	}
	if v.Variant == topfive.VariantClassic && len(v.Topics) == topfive.Hand {
		errs = append(errs, topFiveTally(v, ranks, marker))
	}
	return v.Round, errors.Join(errs...)
}

// topFiveTally recomputes a classic round's tally from the revealed rankings.
func topFiveTally(v topfive.View, ranks [][]int, marker []int) error {
	n := len(v.Names)
	if len(v.Tally.Lines) != n {
		return fmt.Errorf("round %d's tally has %d lines for %d seats", v.Round, len(v.Tally.Lines), n)
	}
	want := make([]topfive.Line, n)
	var honour [topfive.Hand]int
	copy(honour[:], ranks[v.Honour])
	best := 0
	for s := range n {
		want[s] = topfive.Line{Seat: s, Role: topfive.RoleGuesser}
		if s == v.Honour || slices.Equal(ranks[s], make([]int, topfive.Hand)) {
			continue
		}
		var guess [topfive.Hand]int
		copy(guess[:], ranks[s])
		want[s] = topfive.ScoreGuess(honour, guess, marker[s])
		want[s].Seat = s
		best = max(best, want[s].Points)
	}
	want[v.Honour] = topfive.Line{Seat: v.Honour, Role: topfive.RoleHonour, Submitted: true, Points: best}
	if v.Tally.Forfeit {
		for s := range want {
			want[s].Submitted, want[s].Right, want[s].Marker, want[s].Perfect, want[s].Points = v.Tally.Lines[s].Submitted, 0, 0, 0, 0
		}
	}
	for s, l := range v.Tally.Lines {
		if l != want[s] {
			return fmt.Errorf("round %d's tally gives seat %d %+v; the revealed rankings (honour %v, seat %d's %v, marker %d) give %+v",
				v.Round, s, l, ranks[v.Honour], s, ranks[s], marker[s], want[s])
		}
	}
	return nil
}

// quadrantReveal: once a round is scored, the seat's token stands where its last
// acknowledged move of the round put it (or an unanswered later one; the centre when no
// move was acknowledged), and the votes the reveal lists as the seat's are those of its
// acknowledged vote (votes are cast once), or of an unanswered one, or none when none was
// acknowledged. The points (competitive mode) and every vote's right or wrong are
// quadrant.ScoreVotes of the revealed numbers and votes.
func quadrantReveal(seat int, view rules.View, mine []*sent) (int, error) {
	v, ok := rules.ViewAs[quadrant.View](view)
	if !ok || v.Reveal == nil {
		return 0, nil
	}
	var errs []error
	type point struct{ x, y int }
	var moves []tried[point]
	for _, m := range actionsOf[quadrant.Move](mine, v.Round, quadrant.TypeMove) {
		moves = append(moves, tried[point]{a: point{m.a.X, m.a.Y}, ack: m.ack})
	}
	if i := slices.IndexFunc(v.Tokens, func(t quadrant.Token) bool { return t.Seat == seat }); i >= 0 {
		got := point{v.Tokens[i].X, v.Tokens[i].Y}
		could, none := lastOf(moves)
		if none {
			could = append(could, point{}) // where a token starts
		}
		if !oneOf(got, false, could, none, func(a, b point) bool { return a == b }) {
			errs = append(errs, fmt.Errorf("round %d: seat %d's token is at %v; its moves sent that round (the last acknowledged one and any unanswered after it): %v", v.Round, seat, got, could))
		}
	}
	got := map[int]int{}
	for _, vote := range v.Reveal.Votes {
		if vote.Voter == seat {
			got[vote.Seat] = vote.Number
		}
	}
	var casts []tried[map[int]int]
	for _, c := range actionsOf[quadrant.CastVotes](mine, v.Round, quadrant.TypeVote) {
		m := map[int]int{}
		for _, vote := range c.a.Votes {
			m[vote.Seat] = vote.Number
		}
		casts = append(casts, tried[map[int]int]{a: m, ack: c.ack})
	}
	could, none := lastOf(casts)
	if !oneOf(got, len(got) == 0, could, none, func(a, b map[int]int) bool { return fmt.Sprint(a) == fmt.Sprint(b) }) {
		errs = append(errs, fmt.Errorf("round %d's reveal lists seat %d's votes as %v; its votes sent that round (the acknowledged one and any unanswered after it): %v", v.Round, seat, got, could))
	}
	n := len(v.Names)
	votes := make([][]int, n)
	for s := range votes {
		votes[s] = make([]int, n)
	}
	for _, vote := range v.Reveal.Votes {
		if vote.Voter < 0 || vote.Voter >= n || vote.Seat < 0 || vote.Seat >= n {
			return v.Round, fmt.Errorf("round %d's reveal has a vote of seat %d on seat %d, of %d seats", v.Round, vote.Voter, vote.Seat, n)
		}
		votes[vote.Voter][vote.Seat] = vote.Number
	}
	points, verdicts := quadrant.ScoreVotes(v.Reveal.Numbers, votes)
	if !slices.Equal(verdicts, v.Reveal.Votes) {
		errs = append(errs, fmt.Errorf("round %d's reveal lists the votes %+v; scored from its numbers %v they are %+v", v.Round, v.Reveal.Votes, v.Reveal.Numbers, verdicts))
	}
	if v.Mode == quadrant.ModeCompetitive && !slices.Equal(points, v.Reveal.Points) {
		errs = append(errs, fmt.Errorf("round %d's reveal gives the points %v; its numbers %v and votes %+v give %v", v.Round, v.Reveal.Points, v.Reveal.Numbers, v.Reveal.Votes, points))
	}
	return v.Round, errors.Join(errs...)
}

// fingertipReveal: while a turn's reveal is shown, the seat's finger is on the card of
// its acknowledged point of the turn (a seat points once a turn), or of an unanswered
// one, or on none when no point was acknowledged; the clue the turn shows is the active
// seat's acknowledged clue as the game tidies it (fingertip.CheckClue). The turn's
// result follows from the fingers: the finder is the seat whose finger is on the target,
// the wrong cards are those pointed at with a "no", and what each seat took is
// fingertip.Takes of them.
func fingertipReveal(seat int, view rules.View, mine []*sent) (int, error) {
	v, ok := rules.ViewAs[fingertip.View](view)
	if !ok || v.Phase != fingertip.PhaseReveal || v.LastTurn == nil || v.LastTurn.Turn != v.Round {
		return 0, nil
	}
	r := v.LastTurn
	var errs []error
	finger, finder, wrong := 0, -1, []int{}
	for _, c := range v.Square {
		if c.Finger == seat {
			finger = c.Position
		}
		switch {
		case c.Finger >= 0 && c.Position == r.Target:
			finder = c.Finger
		case c.Answer == "no":
			wrong = append(wrong, c.Position)
		}
	}
	var points []tried[int]
	for _, p := range actionsOf[fingertip.Point](mine, v.Round, fingertip.TypePoint) {
		points = append(points, tried[int]{a: p.a.Position, ack: p.ack})
	}
	could, none := lastOf(points)
	if !oneOf(finger, finger == 0, could, none, func(a, b int) bool { return a == b }) {
		errs = append(errs, fmt.Errorf("turn %d's reveal has seat %d's finger on card %d (0: none); its points sent that turn (the acknowledged one and any unanswered after it): %v", v.Round, seat, finger, could))
	}
	if seat == r.Active {
		var clues []tried[string]
		for _, c := range actionsOf[fingertip.Clue](mine, v.Round, fingertip.TypeClue) {
			text, err := fingertip.CheckClue(c.a.Text)
			if err == nil {
				clues = append(clues, tried[string]{a: text, ack: c.ack})
			}
		}
		could, none := lastOf(clues)
		if !oneOf(r.Clue, r.Clue == "", could, none, func(a, b string) bool { return a == b }) {
			errs = append(errs, fmt.Errorf("turn %d's clue is %q; seat %d's clues sent that turn (the acknowledged one and any unanswered after it): %q", v.Round, r.Clue, seat, could))
		}
	}
	if r.Finder != finder || !slices.Equal(r.Wrong, wrong) {
		errs = append(errs, fmt.Errorf("turn %d's result names finder %d and wrong cards %v; the fingers on the square say finder %d, wrong cards %v", v.Round, r.Finder, r.Wrong, finder, wrong))
	}
	if r.Returned && r.Finder >= 0 {
		errs = append(errs, fmt.Errorf("turn %d: a card was given back though seat %d found the target", v.Round, r.Finder))
	}
	if want := fingertip.Takes(len(v.Players), r.Active, finder, len(wrong), r.Returned); !slices.Equal(r.Taken, want) {
		errs = append(errs, fmt.Errorf("turn %d's result gives the cards %v; active seat %d, finder %d and %d wrong cards give %v", v.Round, r.Taken, r.Active, finder, len(wrong), want))
	}
	return v.Round, errors.Join(errs...)
}

// foresightReveal: once a round is scored, the answer, predictions and wagers its reveal
// lists as the seat's are those of the seat's last acknowledged submission of the round
// (a later one replaces an earlier), or of an unanswered one sent after it; "no answer in
// time" only when none was acknowledged. Every row's results are foresight.Score of the
// revealed submissions, from each seat's points before the round (its total less what
// the score sheet says it gained).
func foresightReveal(seat int, view rules.View, mine []*sent) (int, error) {
	v, ok := rules.ViewAs[foresight.View](view)
	if !ok || v.Reveal == nil {
		return 0, nil
	}
	r := v.Reveal
	n := len(r.Players)
	if seat < 0 || seat >= n {
		return r.Round, fmt.Errorf("round %d's reveal has %d rows; the seat is %d", r.Round, n, seat)
	}
	var errs []error
	asSubmit := func(row foresight.RevealedPlayer) *foresight.Submit {
		if row.TimedOut {
			return nil
		}
		s := &foresight.Submit{Type: foresight.TypeSubmit, Answer: row.Answer, Predictions: []foresight.Prediction{}}
		for _, p := range row.Predictions {
			s.Predictions = append(s.Predictions, foresight.Prediction{Seat: p.Seat, Choice: p.Choice, A: p.A, B: p.B})
		}
		return s
	}
	same := func(a, b *foresight.Submit) bool {
		if a.Answer != b.Answer || len(a.Predictions) != len(b.Predictions) {
			return false
		}
		for _, p := range a.Predictions {
			if !slices.Contains(b.Predictions, p) {
				return false
			}
		}
		return true
	}
	var subs []tried[*foresight.Submit]
	for _, s := range actionsOf[foresight.Submit](mine, r.Round, foresight.TypeSubmit) {
		subs = append(subs, tried[*foresight.Submit]{a: &s.a, ack: s.ack})
	}
	could, none := lastOf(subs)
	if got := asSubmit(r.Players[seat]); !oneOf(got, got == nil, could, none, same) {
		errs = append(errs, fmt.Errorf("round %d's reveal lists seat %d's submission as %s; its submissions sent that round (the last acknowledged one and any unanswered after it): %s",
			r.Round, seat, jsonOf(got), jsonOf(could)))
	}
	revealed := make([]*foresight.Submit, n)
	before := make([]int, n) // each seat's points before the round, from the sheet
	known := false
	for p, row := range r.Players {
		revealed[p] = asSubmit(row)
	}
	for _, row := range v.Sheet.Rows {
		if row.Round == r.Round && len(row.Points) == n {
			known = true
			for p := range n {
				before[p] = r.Players[p].Total - row.Points[p]
			}
		}
	}
	want := foresight.Score(revealed, before)
	for p, row := range r.Players {
		w := want[p]
		if !known {
			w.Total = row.Total // the sheet no longer has the round: the change is still checked
		}
		if jsonOf(row) != jsonOf(w) {
			errs = append(errs, fmt.Errorf("round %d's reveal gives seat %d %s; foresight.Score of the revealed submissions from %d points gives %s",
				r.Round, p, jsonOf(row), before[p], jsonOf(w)))
		}
	}
	return r.Round, errors.Join(errs...)
}

// tallTaleReveal: once a round is revealed, the story it shows is the narrator's
// acknowledged story as the game tidies it (single spaces), none only when none was
// acknowledged, and no illustration the narrator was told "ok" for discarding is among
// the kept ones; the tokens it lists as a racer's are the racer's acknowledged tokens of
// the round, in the order sent, with any that got no answer where they were sent. The
// points follow from the revealed tokens by the game's rules: talltale.SpeedPoints of
// each kept illustration's tokens in arrival order, the narrator talltale.NarratorPoints
// of the best racer and of those who found all three (nothing outside a tie-break's tie),
// talltale.TimeoutScore each when no story came, and the forbidden words those
// talltale.ForbiddenIn finds in the story.
func tallTaleReveal(seat int, view rules.View, mine []*sent) (int, error) {
	v, ok := rules.ViewAs[talltale.View](view)
	if !ok || v.Reveal == nil {
		return 0, nil
	}
	r := v.Reveal
	var errs []error
	if seat == r.Narrator {
		var stories []tried[string]
		for _, s := range actionsOf[talltale.Story](mine, v.Round, "story") {
			stories = append(stories, tried[string]{a: strings.Join(strings.Fields(s.a.Text), " "), ack: s.ack})
		}
		could, none := lastOf(stories)
		if !oneOf(r.Story, r.Story == "", could, none, func(a, b string) bool { return a == b }) {
			errs = append(errs, fmt.Errorf("round %d's story is %q; seat %d's stories sent that round (the acknowledged one and any unanswered after it): %q", v.Round, r.Story, seat, could))
		}
		for _, d := range actionsOf[talltale.Discard](mine, v.Round, "discard") {
			if d.ack && slices.ContainsFunc(r.Kept, func(f talltale.Found) bool { return f.Card.ID == d.a.Card }) {
				errs = append(errs, fmt.Errorf("round %d's reveal keeps illustration %d, which seat %d was told it discarded", v.Round, d.a.Card, seat))
			}
		}
	}
	var got []int
	for _, t := range r.Tokens {
		if t.Seat == seat {
			got = append(got, t.Card)
		}
	}
	var tokens []tried[int]
	for _, t := range actionsOf[talltale.Token](mine, v.Round, "token") {
		tokens = append(tokens, tried[int]{a: t.a.Card, ack: t.ack})
	}
	if !seq(tokens, got) {
		errs = append(errs, fmt.Errorf("round %d's reveal lists seat %d's tokens as %v; the tokens it sent that round: %s", v.Round, seat, got, triedString(tokens)))
	}
	errs = append(errs, tallTalePoints(v))
	return v.Round, errors.Join(errs...)
}

// tallTalePoints recomputes a revealed round's points from its tokens and story.
func tallTalePoints(v talltale.View) error {
	r := v.Reveal
	n := len(v.Names)
	points := make([]int, n)
	found := []talltale.Found{}
	for _, k := range r.Kept {
		f := talltale.Found{Card: k.Card, Hits: []talltale.Hit{}}
		var seats []int
		for _, t := range r.Tokens {
			if t.Card == k.Card.ID {
				seats = append(seats, t.Seat)
			}
		}
		for i, p := range talltale.SpeedPoints(len(seats)) {
			f.Hits = append(f.Hits, talltale.Hit{Seat: seats[i], Points: p})
			points[seats[i]] += p
		}
		found = append(found, f)
	}
	if (len(found) > 0 || len(r.Kept) > 0) && jsonOf(found) != jsonOf(r.Kept) {
		return fmt.Errorf("round %d's reveal scores the kept illustrations %s; their tokens in arrival order give %s", v.Round, jsonOf(r.Kept), jsonOf(found))
	}
	foundAll := []int{}
	narrator := 0
	var forbidden []string
	if r.TimedOut {
		for _, s := range v.Racers {
			points[s] = talltale.TimeoutScore
		}
	} else {
		best := 0
		for _, s := range v.Racers {
			best = max(best, points[s])
			hits := 0
			for _, f := range found {
				if slices.ContainsFunc(f.Hits, func(h talltale.Hit) bool { return h.Seat == s }) {
					hits++
				}
			}
			if hits == talltale.Kept {
				foundAll = append(foundAll, s)
			}
		}
		narrator, _ = talltale.NarratorPoints(best, len(foundAll))
		scores := !r.TieBreak || slices.Contains(v.Tied, r.Narrator)
		if !scores {
			narrator = 0
		}
		points[r.Narrator] = narrator
		if scores {
			var kept []talltale.Illustration
			for _, f := range r.Kept {
				kept = append(kept, f.Card)
			}
			for _, u := range talltale.ForbiddenIn(r.Story, kept) {
				forbidden = append(forbidden, u.Word)
			}
		}
	}
	switch {
	case !slices.Equal(points, r.Points):
		return fmt.Errorf("round %d's reveal gives the points %v; its tokens %v (racers %v, narrator %d, timed out %v) give %v", v.Round, r.Points, r.Tokens, v.Racers, r.Narrator, r.TimedOut, points)
	case !slices.Equal(foundAll, r.FoundAll) || narrator != r.NarratorScore:
		return fmt.Errorf("round %d's reveal says %v found all three and the narrator scores %d; its tokens say %v and %d", v.Round, r.FoundAll, r.NarratorScore, foundAll, narrator)
	case !slices.Equal(forbidden, r.ForbiddenWords) || len(forbidden) > 0 && r.Forbidden != forbidden[0]:
		return fmt.Errorf("round %d's reveal names the forbidden words %q; talltale.ForbiddenIn finds %q in the story %q", v.Round, r.ForbiddenWords, forbidden, r.Story)
	case r.Penalty < 0 || r.Penalty > talltale.Penalty || r.Penalty > 0 && len(forbidden) == 0:
		return fmt.Errorf("round %d's reveal takes a penalty of %d for the forbidden words %q", v.Round, r.Penalty, forbidden)
	}
	return nil
}

// triedString shows a seat's actions with whether each was acknowledged.
func triedString[T any](ts []tried[T]) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		how := "ok"
		if !t.ack {
			how = "no answer"
		}
		parts[i] = fmt.Sprintf("%v (%s)", t.a, how)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// jsonOf is v as JSON, to show and compare.
func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
