package quadrant

import "time"

// botBallotPause is how long a bot lets the team ballot rest unchanged before it approves
// without a teammate's lead: time for the people on the team to read it and edit.
const botBallotPause = 20 * time.Second

// teamBallot is a bot's turn on the shared ballot. It only suggests numbers for lines
// nobody has written, so a person's edit always stands, and it approves a complete ballot
// once a teammate has approved it or once it has rested unchanged for botBallotPause.
// The ballot is cast only when every member approves, so bots never outvote a person.
func (b *Bot) teamBallot(v View, now time.Time) any {
	bal := v.Ballot
	if bal == nil || bal.Cast {
		return nil
	}
	used, free := map[int]bool{}, map[int]bool{}
	complete := true
	for _, l := range bal.Votes {
		switch {
		case l.Number != 0:
			used[l.Number] = true
		case l.By == NoSeat:
			free[l.Seat] = true
			complete = false
		default:
			complete = false // a teammate cleared it: theirs to fill
		}
	}
	if len(free) > 0 {
		if gs := b.guessAmong(v, free, used); len(gs) > 0 {
			return BallotSet{Type: TypeBallotSet, Seat: gs[0].Seat, Number: gs[0].Number, Suggest: true}
		}
	}
	if !complete {
		return nil
	}
	led := false
	for _, s := range bal.Approved {
		if s == v.Seat {
			return nil
		}
		led = true
	}
	if led || !now.Before(bal.ChangedAt.Add(botBallotPause)) {
		return Approve{Type: TypeApprove, Rev: bal.Rev}
	}
	return nil
}
