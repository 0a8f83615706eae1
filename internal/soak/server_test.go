package soak

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// buildParlor builds the real parlor program once per test run, without the race
// detector (the soak tests the program, not itself).
func buildParlor(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "parlor")
	cmd := exec.Command("go", "build", "-o", bin, "parlor/cmd/parlor")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build parlor: %v\n%s", err, out)
	}
	return bin
}

// node is one parlor server, run again and again on the same data folder.
type node struct {
	t    *testing.T
	bin  string
	name string
	data string
	args []string // besides --listen and --data
	logs *os.File // every run's output, for a failure's report

	mu     sync.Mutex
	addr   string // the SSH address while running, "" while down
	port   string // kept across restarts, so players find it where it was
	cmd    *exec.Cmd
	exited chan struct{}
	up     chan struct{} // closed when running
}

var listening = regexp.MustCompile(`ssh=127\.0\.0\.1:(\d+)`)

func newNode(t *testing.T, bin, name string, args ...string) *node {
	dir := t.TempDir()
	logs := keptLog(t, name+".log")
	n := &node{t: t, bin: bin, name: name, data: filepath.Join(dir, "data"), args: args, logs: logs, port: "0", up: make(chan struct{})}
	t.Cleanup(func() { n.stop(syscall.SIGKILL) })
	return n
}

// start runs the server and waits until it listens; an error says why it did not.
func (n *node) start() error {
	n.mu.Lock()
	port := n.port
	n.mu.Unlock()
	args := append([]string{"--listen=127.0.0.1:" + port, "--data=" + n.data}, n.args...)
	cmd := exec.Command(n.bin, args...)
	cmd.Env = cleanEnv()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	cmd.Stdout = n.logs
	fmt.Fprintf(n.logs, "--- %s start %s\n", time.Now().Format(time.RFC3339Nano), strings.Join(args, " "))
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
			fmt.Fprintln(n.logs, sc.Text())
		}
		_ = cmd.Wait()
		close(exited)
	}()
	select {
	case p := <-found:
		n.mu.Lock()
		n.cmd, n.exited, n.port, n.addr = cmd, exited, p, "127.0.0.1:"+p
		close(n.up)
		n.mu.Unlock()
		return nil
	case <-exited:
		return fmt.Errorf("%s exited before it listened (see %s)", n.name, n.logs.Name())
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		<-exited
		return fmt.Errorf("%s did not listen within 2 minutes", n.name)
	}
}

// stop sends sig and waits until the process is gone.
func (n *node) stop(sig syscall.Signal) {
	n.mu.Lock()
	cmd, exited := n.cmd, n.exited
	if cmd != nil {
		n.cmd, n.addr = nil, ""
		n.up = make(chan struct{})
	}
	n.mu.Unlock()
	signalAndWait(cmd, exited, sig)
}

// signalAndWait sends sig to a process (none: nothing) and waits until it is gone; one
// that outlives 2 minutes is killed.
func signalAndWait(cmd *exec.Cmd, exited <-chan struct{}, sig syscall.Signal) {
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(sig)
	select {
	case <-exited:
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		<-exited
	}
}

// address is where the server listens, waiting while it is down; "" once done closes.
func (n *node) address(done <-chan struct{}) string {
	for {
		n.mu.Lock()
		addr, up := n.addr, n.up
		n.mu.Unlock()
		if addr != "" {
			return addr
		}
		select {
		case <-up:
		case <-done:
			return ""
		}
	}
}

// addrNow is where the server listens, "" while it is down.
func (n *node) addrNow() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.addr
}

// keptLog is a file for a process's output that outlives a failed test (t.TempDir's
// do not), so its report can name it; a test that passes removes it.
func keptLog(t *testing.T, name string) *os.File {
	dir, err := os.MkdirTemp("", "parlor-soak-logs-")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = f.Close()
		if !t.Failed() {
			_ = os.RemoveAll(dir)
		}
	})
	return f
}

// cleanEnv is this process's environment without PARLOR_* settings, so the soak's own
// variables do not reach the servers.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PARLOR_") {
			env = append(env, kv)
		}
	}
	return env
}
