package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as parlor: with this variable set, TestMain runs main instead
// of the tests, so exit codes and signals are checked on a real process.
const beParlor = "PARLOR_TEST_BE_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(beParlor) == "1" {
		os.Args = append([]string{"parlor"}, strings.FieldsFunc(os.Getenv(beParlor+"_ARGS"), func(r rune) bool { return r == '\n' })...)
		main()
		return
	}
	os.Exit(m.Run())
}

// parlorCmd runs this test binary as parlor with args and a clean PARLOR_* environment.
func parlorCmd(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PARLOR_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, beParlor+"=1", beParlor+"_ARGS="+strings.Join(args, "\n"))
	return cmd
}

func TestExitCodes(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"--help"}, 0, "PARLOR_IDLE_TIMEOUT", ""},
		{[]string{"--idle-timeout=soon"}, 2, "", "--idle-timeout"},
		{[]string{"--nope"}, 2, "", "--nope"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			cmd := parlorCmd(t, tc.args...)
			var out, errOut strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &errOut
			err := cmd.Run()
			if code := cmd.ProcessState.ExitCode(); code != tc.code {
				t.Fatalf("exit code %d (%v), want %d; stderr: %s", code, err, tc.code, errOut.String())
			}
			if !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("stdout %q, stderr %q; want them to contain %q and %q", out.String(), errOut.String(), tc.stdout, tc.stderr)
			}
			if tc.code == 2 && strings.Count(strings.TrimSpace(errOut.String()), "\n") != 0 {
				t.Errorf("error is not one line: %q", errOut.String())
			}
		})
	}
}

// TestSignalsShutDown starts a real server and stops it the way Docker (SIGTERM), a
// terminal (SIGINT) and a closed terminal or supervisor (SIGHUP) do.
func TestSignalsShutDown(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) { stopsOn(t, sig) })
	}
}

func stopsOn(t *testing.T, sig syscall.Signal) {
	data := filepath.Join(t.TempDir(), "data")
	cmd := parlorCmd(t, "--listen=127.0.0.1:0", "--http=off", "--data="+data)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		exited <- cmd.Wait()
	}()
	var log []string
	deadline := time.After(60 * time.Second)
	for ready := false; !ready; {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("parlor exited before listening:\n%s", strings.Join(log, "\n"))
			}
			log = append(log, l)
			ready = strings.Contains(l, "fingerprint")
		case <-deadline:
			_ = cmd.Process.Kill()
			t.Fatalf("parlor did not start:\n%s", strings.Join(log, "\n"))
		}
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	// Drain the log until parlor exits; the deadline guards against a hung shutdown.
	deadline = time.After(60 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if ok {
				log = append(log, l)
				continue
			}
			if err := <-exited; err != nil {
				t.Fatalf("parlor did not exit cleanly after %v: %v\n%s", sig, err, strings.Join(log, "\n"))
			}
			return
		case <-deadline:
			_ = cmd.Process.Kill()
			t.Fatalf("parlor ignored %v:\n%s", sig, strings.Join(log, "\n"))
		}
	}
}
