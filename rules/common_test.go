package rules

import "testing"

func TestRegisterAppendsCommonOptions(t *testing.T) {
	s := &Spec{ID: "common-test", Name: "Common test", MinPlayers: 1, MaxPlayers: 2,
		Options: []Option{{Key: "timer", Name: "Timer", Choices: []string{"off", "30s"}, Default: "off"}},
		New:     func(Setup) (Game, error) { return nil, nil },
		NewBot:  func(BotSetup) Bot { return nil }}
	Register(s)
	t.Cleanup(func() { unregister(s.ID) })
	if len(s.Options) != 1+len(CommonOptions) || s.Options[1].Key != OptBots {
		t.Fatalf("options after Register: %+v", s.Options)
	}
	o, err := s.CheckOptions(Options{OptBots: SkillSharp})
	if err != nil || Skill(o) != SkillSharp || o["timer"] != "off" {
		t.Fatalf("CheckOptions = %v, %v", o, err)
	}
	if _, err := s.CheckOptions(Options{OptBots: "genius"}); err == nil {
		t.Fatal("an unknown bot skill was accepted")
	}
	if d := s.Defaults(); Skill(d) != SkillNormal || d[OptBots] != SkillNormal {
		t.Fatalf("defaults %v", d)
	}
}

func TestRegisterRefusesACommonKey(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a game's own option with a common key was accepted")
		}
	}()
	Register(&Spec{ID: "common-dup", Name: "Dup", MinPlayers: 1, MaxPlayers: 2,
		Options: []Option{{Key: OptBots, Name: "Bots", Choices: []string{"a"}, Default: "a"}},
		New:     func(Setup) (Game, error) { return nil, nil },
		NewBot:  func(BotSetup) Bot { return nil }})
}

func TestSkillWithoutTheOption(t *testing.T) {
	if Skill(nil) != SkillNormal || Skill(Options{OptBots: "x"}) != SkillNormal || Skill(Options{OptBots: SkillEasy}) != SkillEasy {
		t.Fatal("Skill does not fall back to normal")
	}
}

// unregister takes a game a test registered out of the registry again, so that the tests
// that go through every registered game meet only the real ones.
func unregister(id string) {
	registryMu.Lock()
	defer registryMu.Unlock()
	delete(registry, id)
}
