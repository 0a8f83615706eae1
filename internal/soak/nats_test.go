package soak

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
)

// The test binary doubles as a NATS server: with envNATS set to its settings, TestMain
// runs an embedded nats-server with JetStream until SIGTERM, so the soak can kill -9
// and restart a NATS server as it does a parlor node.
const envNATS = "PARLOR_SOAK_NATS"

// natsSettings is one NATS server of the soak's cluster.
type natsSettings struct {
	Name   string   `json:"name"`
	Port   int      `json:"port"`
	Route  int      `json:"route"`
	HTTP   int      `json:"http"` // the monitoring port, for /healthz
	Routes []string `json:"routes"`
	Dir    string   `json:"dir"`
}

// beNATS runs a NATS server as settings say until SIGTERM or SIGINT.
func beNATS(settings string) {
	var s natsSettings
	if err := json.Unmarshal([]byte(settings), &s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var routes []*url.URL
	for _, r := range s.Routes {
		u, _ := url.Parse(r)
		routes = append(routes, u)
	}
	opts := &natsserver.Options{
		ServerName: s.Name, Host: "127.0.0.1", Port: s.Port, NoSigs: true,
		JetStream: true, StoreDir: s.Dir,
		// NoAdvertise: clients must not learn the other servers' own addresses, or they
		// would go round the soak's proxies.
		Cluster:  natsserver.ClusterOpts{Name: "soak", Host: "127.0.0.1", Port: s.Route, NoAdvertise: true},
		Routes:   routes,
		HTTPHost: "127.0.0.1", HTTPPort: s.HTTP,
	}
	srv, err := natsserver.NewServer(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	srv.ConfigureLogger()
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	go srv.Start()
	<-stop
	srv.Shutdown()
	srv.WaitForShutdown()
	os.Exit(0)
}

// natsProc is one NATS server process of the soak, restarted on its ports and folder.
type natsProc struct {
	settings natsSettings
	logs     io.Writer

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
}

// freePorts are n different ports nobody listens on now: each is held until all are
// chosen, or the kernel may hand the same one out twice.
func freePorts(t *testing.T, n int) []int {
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

// startNATSCluster starts n NATS servers that form one JetStream cluster.
func startNATSCluster(t *testing.T, n int, logs io.Writer) []*natsProc {
	var out []*natsProc
	var routes []string
	ports := freePorts(t, 3*n)
	for i := range n {
		s := natsSettings{Port: ports[3*i], Route: ports[3*i+1], HTTP: ports[3*i+2]}
		routes = append(routes, fmt.Sprintf("nats-route://127.0.0.1:%d", s.Route))
		out = append(out, &natsProc{settings: s, logs: logs})
	}
	for i, p := range out {
		p.settings.Name = fmt.Sprintf("nats-%d", i+1)
		p.settings.Routes = routes
		p.settings.Dir = t.TempDir()
		if err := p.start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.stop(syscall.SIGKILL) })
	}
	return out
}

// url is the server's client URL.
func (p *natsProc) url() string { return fmt.Sprintf("nats://127.0.0.1:%d", p.settings.Port) }

// start runs the server and waits until it takes connections.
func (p *natsProc) start() error {
	b, _ := json.Marshal(p.settings)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(cleanEnv(), envNATS+"="+string(b))
	cmd.Stdout, cmd.Stderr = p.logs, p.logs
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	p.mu.Lock()
	p.cmd, p.exited = cmd, exited
	p.mu.Unlock()
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		select {
		case <-exited:
			return fmt.Errorf("%s exited at start", p.settings.Name)
		default:
		}
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", p.settings.Port)); err == nil {
			_ = c.Close()
			return nil
		}
	}
	return fmt.Errorf("%s takes no connections after 2 minutes", p.settings.Name)
}

// healthy reports whether the server says it is healthy: running, and its JetStream
// current with the cluster (a restarted server has caught up).
func (p *natsProc) healthy() bool {
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(fmt.Sprintf("http://127.0.0.1:%d/healthz", p.settings.HTTP))
	if err != nil {
		return false
	}
	_ = resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// stop sends sig and waits until the process is gone.
func (p *natsProc) stop(sig syscall.Signal) {
	p.mu.Lock()
	cmd, exited := p.cmd, p.exited
	p.cmd = nil
	p.mu.Unlock()
	signalAndWait(cmd, exited, sig)
}

// proxy is a TCP proxy between one parlor node and one NATS server that the soak can
// cut: a cut drops every connection through it and refuses new ones until it heals, as
// a network partition between the two would.
type proxy struct {
	l      net.Listener
	target string

	mu    sync.Mutex
	cut   bool
	conns map[net.Conn]bool
	wg    sync.WaitGroup
}

func newProxy(t *testing.T, target string) *proxy {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{l: l, target: target, conns: map[net.Conn]bool{}}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(func() {
		_ = l.Close()
		p.setCut(true)
		p.wg.Wait()
	})
	return p
}

// url is the proxy's NATS URL.
func (p *proxy) url() string { return "nats://" + p.l.Addr().String() }

func (p *proxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		cut := p.cut
		p.mu.Unlock()
		if cut {
			_ = c.Close()
			continue
		}
		up, err := net.DialTimeout("tcp", p.target, 5*time.Second)
		if err != nil {
			_ = c.Close()
			continue
		}
		p.mu.Lock()
		p.conns[c], p.conns[up] = true, true
		p.mu.Unlock()
		p.wg.Add(2)
		go p.pipe(c, up)
		go p.pipe(up, c)
	}
}

// pipe copies one way; when either side ends, both do.
func (p *proxy) pipe(dst, src net.Conn) {
	defer p.wg.Done()
	_, _ = io.Copy(dst, src)
	_ = dst.Close()
	_ = src.Close()
	p.mu.Lock()
	delete(p.conns, dst)
	delete(p.conns, src)
	p.mu.Unlock()
}

// setCut cuts the link (dropping its connections) or heals it.
func (p *proxy) setCut(cut bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = cut
	if cut {
		for c := range p.conns {
			_ = c.Close()
		}
	}
}
