// Command parlor runs the parlor SSH party-game server.
//
// Configuration comes from defaults, then PARLOR_* environment variables, then flags
// (see parlor --help). SIGINT, SIGTERM and SIGHUP are handled here, once, for the whole
// process: the first one asks the server to shut down gracefully, a second one kills it.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"parlor/server"
)

func main() {
	os.Exit(run())
}

// run returns the exit code: 0 after a clean shutdown, --help or --version, 2 for bad
// configuration, 1 when the server fails.
func run() int {
	cfg, err := parseConfig(os.Args[1:], os.Getenv)
	var help *helpRequested
	switch {
	case errors.As(err, &help):
		fmt.Fprint(os.Stdout, help.usage)
		return 0
	case errors.As(err, new(versionRequested)):
		fmt.Println("parlor", server.Version())
		return 0
	case err != nil:
		fmt.Fprintf(os.Stderr, "parlor: %v (see parlor --help)\n", err)
		return 2
	}

	logger, err := server.NewLogger(cfg, os.Stderr)
	if err != nil { // Validate has checked the level and format
		fmt.Fprintf(os.Stderr, "parlor: %v\n", err)
		return 2
	}

	// Players' programs run in parlor's own loop (termrt), which installs no signal
	// handler as tea.Program does (docs/architecture.md), so this is the only place a
	// signal is seen.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	// After the first signal, restoring the default handlers lets a second one kill a
	// shutdown that hangs. The deferred stop also ends this goroutine on a normal return.
	go func() {
		<-ctx.Done()
		stop()
	}()

	err = server.Run(ctx, cfg, logger)
	if err != nil {
		logger.Error("server stopped", "err", err)
		return 1
	}
	return 0
}
