package session

import (
	"fmt"
	"slices"
	"testing"

	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/rules"
)

// A player who comes to a running game reads in their log what happened before they
// came (the first update's history), once, and then the new lines as they come.
func TestTheLogStartsWithTheGameSoFar(t *testing.T) {
	var hist []string
	for i := 1; i <= 12; i++ {
		hist = append(hist, fmt.Sprintf("line %d", i))
	}
	table := lobby.TableInfo{Game: testgame.ID, State: lobby.StatePlaying}
	view := func(log []string) rules.View {
		return testgame.View{Header: rules.Header{Game: testgame.ID, Round: 3, Log: log}}
	}
	var ts tableScreen
	ts.apply(lobby.Update{Table: table, View: view(hist[4:]), History: hist,
		Chat: []lobby.ChatLine{{ID: 1, Seat: -2, Text: "The game has started."}}})
	want := append([]string{"» The game has started.", historyRule}, hist...)
	if !slices.Equal(ts.feed, want) {
		t.Fatalf("the log after the first update: %q", ts.feed)
	}
	more := append(slices.Clone(hist[5:]), "line 13")
	ts.apply(lobby.Update{Table: table, View: view(more)})
	if want := append(want, "line 13"); !slices.Equal(ts.feed, want) {
		t.Fatalf("the log after the next update: %q", ts.feed)
	}
	// A game whose history is no longer than its view's log needs no heading.
	var fresh tableScreen
	fresh.apply(lobby.Update{Table: table, View: view(hist[:3]), History: hist[:3]})
	if !slices.Equal(fresh.feed, hist[:3]) {
		t.Fatalf("a short history: %q", fresh.feed)
	}
}

// When a player leaves a finished table and the seats after theirs move up, a player
// who moved keeps their screen of the game: from their seat in it, with its names in
// place and without its log again.
func TestMovingUpAfterAGameKeepsTheGameScreen(t *testing.T) {
	log := []string{"Ann picked.", "Ben picked.", "Game over."}
	view := testgame.View{Header: rules.Header{Game: testgame.ID, Seat: 1, Log: log, Over: true}}
	seats := []lobby.SeatInfo{{Name: "Ann"}, {Name: "Ben"}, {Name: "Cat"}}
	var ts tableScreen
	ts.apply(lobby.Update{Table: lobby.TableInfo{Game: testgame.ID, State: lobby.StateFinished, Seats: seats}, Seat: 1, View: view})
	key, feed := ts.gameKey, slices.Clone(ts.feed)
	ts.apply(lobby.Update{Table: lobby.TableInfo{Game: testgame.ID, State: lobby.StateFinished, Seats: seats[1:], GameSeats: []int{1, 2}}, Seat: 0, View: view})
	if ts.gameKey != key || ts.gameSeat() != 1 {
		t.Errorf("the game screen went from %q to %q, for seat %d", key, ts.gameKey, ts.gameSeat())
	}
	if !slices.Equal(ts.feed, feed) {
		t.Errorf("the log went from %q to %q", feed, ts.feed)
	}
	if got := ts.names(); !slices.Equal(got, []string{"", "Ben", "Cat"}) {
		t.Errorf("the game's names: %q", got)
	}
}

// A second game at the table starts its log under a rule, so that its rounds are not
// read as more of the first game's.
func TestANewGameStartsUnderARule(t *testing.T) {
	view := func(log ...string) rules.View {
		return testgame.View{Header: rules.Header{Game: testgame.ID, Log: log}}
	}
	seats := []lobby.SeatInfo{{Name: "Ann"}, {Name: "Ben"}}
	var ts tableScreen
	ts.apply(lobby.Update{Table: lobby.TableInfo{Game: testgame.ID, State: lobby.StatePlaying, Seats: seats}, View: view("Round 1: first game")})
	ts.apply(lobby.Update{Table: lobby.TableInfo{Game: testgame.ID, State: lobby.StateFinished, Seats: seats}, View: view("Round 1: first game", "Game over.")})
	ts.apply(lobby.Update{Table: lobby.TableInfo{Game: testgame.ID, State: lobby.StatePlaying, Seats: seats}, View: view("Round 1: second game")})
	want := []string{"Round 1: first game", "Game over.", newGameRule, "Round 1: second game"}
	if !slices.Equal(ts.feed, want) {
		t.Fatalf("the log: %q, want %q", ts.feed, want)
	}
}

// A list item's own items ("  - ") are drawn under it, indented, so that "sends:" reads
// as the head of what follows.
func TestRulesListItemsNest(t *testing.T) {
	got := rulesLines("- Everyone sends:\n  - an answer\n  - a prediction for every other player\n- Then the round is scored.", 20)
	want := []string{"• Everyone sends:", "  ◦ an answer", "  ◦ a prediction for", "    every other", "    player", "• Then the round is", "  scored."}
	if !slices.Equal(got, want) {
		t.Fatalf("rules lines:\n%q\nwant\n%q", got, want)
	}
}
