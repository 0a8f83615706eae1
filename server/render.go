package server

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"

	tea "charm.land/bubbletea/v2"
)

// Frames are rendered on a few long-lived goroutines (one per processor), not on each
// session's own.
//
// Why: rendering goes deep (lipgloss passes its large Style by value down long call
// chains), and a goroutine's stack starts at 8 KB and grows by copying itself into a
// new one twice the size. The collector halves the stack of every goroutine it finds
// using less than a quarter of it, and a session's goroutine spends its life waiting
// shallow in its loop: so every session grew its stack again on its first frame after
// each collection, and on its first frame of all. That copying was 15 % of the
// server's CPU at login and 5 % under load (docs/performance.md). A renderer's stack
// grows once and is used by every session, and the sessions' stacks stay small, which
// also leaves the collector less to scan. The cost is two hand-overs per frame, and
// that a frame which never finished would hold a renderer for every session: rendering
// must not block (it reads the session's model and its table's shared drawings).
type renderJob struct {
	m     tea.Model
	rows  []string
	fault *commandPanic // what rendering panicked with, with the renderer's stack
	done  chan struct{}
}

var (
	renderQueue    = make(chan *renderJob)
	startRenderers sync.Once
)

// render returns m's frame as rows, rendered on a renderer. j is the caller's own job,
// kept from frame to frame; one render at a time per job. A panic in rendering is
// raised again here, on the caller's goroutine, so it ends that session only.
func render(j *renderJob, m tea.Model) []string {
	startRenderers.Do(func() {
		for range runtime.GOMAXPROCS(0) {
			go renderer()
		}
	})
	if j.done == nil {
		j.done = make(chan struct{}, 1)
	}
	j.m = m
	renderQueue <- j
	<-j.done
	rows, fault := j.rows, j.fault
	j.m, j.rows, j.fault = nil, nil, nil
	if fault != nil {
		panic(fmt.Sprintf("%v\n\nrenderer's stack:\n%s", fault.value, fault.stack))
	}
	return rows
}

func renderer() {
	for j := range renderQueue {
		renderOne(j)
	}
}

func renderOne(j *renderJob) {
	defer func() {
		if r := recover(); r != nil {
			j.fault = &commandPanic{r, debug.Stack()}
		}
		j.done <- struct{}{}
	}()
	j.rows = rowsOf(j.m)
}
