package natstest

import "github.com/nats-io/nats-server/v2/server"

// Subscriptions lists every client connection's subscriptions, by connection name, as
// the server itself holds them: a test can check who listens to what (in a cluster test,
// that a node subscribes to its own sessions' seat subjects only). Nil while stopped.
func (s *Server) Subscriptions() map[string][]string {
	s.mu.Lock()
	srv := s.srv
	s.mu.Unlock()
	if srv == nil {
		return nil
	}
	cz, err := srv.Connz(&server.ConnzOptions{Subscriptions: true})
	if err != nil {
		return nil
	}
	out := map[string][]string{}
	for _, c := range cz.Conns {
		out[c.Name] = append(out[c.Name], c.Subs...)
	}
	return out
}
