package talltale

import (
	"fmt"
	"testing"
	"time"

	"parlor/rules"
	tt "parlor/rules/talltale"
	"parlor/session/gameui"
)

func TestZZShow(t *testing.T) {
	g := newGame(t, nil)
	bots := []*tt.Bot{tt.NewBot(0, 1), tt.NewBot(1, 2), tt.NewBot(2, 3)}
	now := t0
	s := New(0)
	f := gameui.Frame{Width: 80, Height: 19, Plain: true}
	shown := map[string]bool{}
	for !g.View(0).Head().Over {
		now = now.Add(time.Second)
		g.Tick(now)
		for i, b := range bots {
			if a := b.Act(g.View(i), now); a != nil {
				g.Apply(i, rules.Encode(a), now)
			}
		}
		v := g.View(0).(tt.View)
		k := v.Phase + fmt.Sprint(v.Narrator == 0)
		if !shown[k] && (v.Phase != tt.PhaseRace || len(v.MyTokens) > 0 || v.Narrator == 0) {
			shown[k] = true
			s.SetView(v)
			fmt.Println(s.Render(f) + "\n-----")
		}
	}
	s.SetView(g.View(0))
	fmt.Println(s.Render(f) + "\n-----")
}
