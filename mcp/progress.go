package mcp

import (
	"encoding/json"
	"math"
	"sync"
)

// progressQueueLen bounds the reports waiting to be written for one call;
// reports beyond it are dropped.
const progressQueueLen = 64

// noProgress is the Progress of a call without a progress token.
type noProgress struct{}

func (noProgress) Report(float64, float64, string) {}

// progress sends notifications/progress for one call. Report only queues; a
// flusher goroutine, started on demand, writes the queue in order. finish
// stops new reports and waits until the queue is written, so every report
// precedes the call's response and none follows it.
type progress struct {
	c           *conn
	token       json.RawMessage
	withMessage bool

	mu       sync.Mutex
	started  bool    // a report has been accepted
	last     float64 // progress of the last accepted report
	done     bool    // the call has finished; further reports are dropped
	queue    [][]byte
	flushing chan struct{} // non-nil while a flusher runs; closed when it exits
}

type progressParams struct {
	ProgressToken json.RawMessage `json:"progressToken"`
	Progress      float64         `json:"progress"`
	Total         float64         `json:"total,omitempty"`
	Message       string          `json:"message,omitempty"`
}

// Report implements Progress.
func (p *progress) Report(progress, total float64, message string) {
	if math.IsNaN(progress) || math.IsInf(progress, 0) || math.IsNaN(total) || math.IsInf(total, 0) {
		return
	}
	params := progressParams{ProgressToken: p.token, Progress: progress, Total: total}
	if p.withMessage {
		params.Message = message
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done || (p.started && progress <= p.last) || len(p.queue) >= progressQueueLen {
		return
	}
	b, err := json.Marshal(notification{JSONRPC: "2.0", Method: "notifications/progress", Params: params})
	if err != nil {
		return
	}
	p.started, p.last = true, progress
	p.queue = append(p.queue, b)
	if p.flushing == nil {
		p.flushing = make(chan struct{})
		go p.flush(p.flushing)
	}
}

// flush writes queued reports until the queue is empty.
func (p *progress) flush(exited chan struct{}) {
	defer close(exited)
	for {
		p.mu.Lock()
		if len(p.queue) == 0 {
			p.flushing = nil
			p.mu.Unlock()
			return
		}
		b := p.queue[0]
		p.queue = p.queue[1:]
		p.mu.Unlock()
		p.c.writeLine(b)
	}
}

// finish stops accepting reports and waits until the queued ones are written.
func (p *progress) finish() {
	p.mu.Lock()
	p.done = true
	ch := p.flushing
	p.mu.Unlock()
	if ch != nil {
		<-ch
	}
}
