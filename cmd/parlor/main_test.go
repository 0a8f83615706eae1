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
	return parlorCmdFrom(t, os.Args[0], args...)
}

func parlorCmdFrom(t *testing.T, binary string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(binary)
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
		{[]string{"--version"}, 0, "parlor devel", ""},
		{[]string{"--log-format=yaml"}, 2, "", "--log-format"},
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
	cmd := parlorCmd(t, "--listen=127.0.0.1:0", "--http=off", "--web=off", "--data="+data)
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

// TestUnwritableDataDir: a data directory parlor cannot write is one message that says
// "permission denied" and how to fix the ownership. As root (where every directory is
// writable) the check runs as the Docker image's user, uid 65532.
func TestUnwritableDataDir(t *testing.T) {
	// Not t.TempDir: its parent is closed to other users.
	base, err := os.MkdirTemp("", "parlor-datadir-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(base, "data")
	if err := os.Mkdir(data, 0o555); err != nil {
		t.Fatal(err)
	}
	binary := os.Args[0]
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		// The test binary sits in a folder only root may enter: copy it out.
		b, err := os.ReadFile(binary)
		if err != nil {
			t.Fatal(err)
		}
		binary = filepath.Join(base, "parlor")
		if err := os.WriteFile(binary, b, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(data, 0, 0); err != nil {
			t.Fatal(err)
		}
		cred = &syscall.Credential{Uid: 65532, Gid: 65532}
	}
	cmd := parlorCmdFrom(t, binary, "--listen=127.0.0.1:0", "--http=off", "--web=off", "--data="+data)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	cmd.Dir = base
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Fatalf("exit code %d (%v), want 1; stderr: %s", code, err, stderr.String())
	}
	for _, want := range []string{"permission denied", "chown -R", data, "65532"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("the message does not say %q:\n%s", want, stderr.String())
		}
	}
}
