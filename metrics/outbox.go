package metrics

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

var (
	waitingDesc = prometheus.NewDesc("tessera_outbox_waiting", "Announcements (posts, edits, direct messages) not yet delivered.", nil, nil)
	oldestDesc  = prometheus.NewDesc("tessera_outbox_oldest_age_seconds", "Age of the oldest announcement not yet delivered (0 when none waits).", nil, nil)
	upDesc      = prometheus.NewDesc("tessera_store_up", "1 when the last scrape could read the store, 0 when it could not.", nil, nil)
)

// outboxCollector reads the outbox's gauges from the store at each
// scrape, within the registry's timeout.
type outboxCollector struct{ r *Registry }

func (c outboxCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- waitingDesc
	ch <- oldestDesc
	ch <- upDesc
}

func (c outboxCollector) Collect(ch chan<- prometheus.Metric) {
	c.r.mu.Lock()
	st := c.r.outbox
	c.r.mu.Unlock()
	if st == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.r.timeout())
	defer cancel()
	o, err := c.r.readOutbox(ctx, st)
	if err != nil {
		ch <- prometheus.MustNewConstMetric(upDesc, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(upDesc, prometheus.GaugeValue, 1)
	ch <- prometheus.MustNewConstMetric(waitingDesc, prometheus.GaugeValue, float64(o.Waiting))
	ch <- prometheus.MustNewConstMetric(oldestDesc, prometheus.GaugeValue, o.Oldest.Seconds())
}

// outboxState is what the outbox holds now.
type outboxState struct {
	Waiting int
	Oldest  time.Duration // the oldest waiting announcement's age (0: none, or of unknown age)
}

// readOutbox counts the announcements waiting and finds the oldest: the
// first Pending lists when every back-off is over (a far "now"), since
// one waiting for a retry is not due yet but is waiting all the same.
func (r *Registry) readOutbox(ctx context.Context, st Outbox) (outboxState, error) {
	n, err := st.Outbox(ctx)
	if err != nil || n == 0 {
		return outboxState{}, err
	}
	now := r.now()
	first, err := st.Pending(ctx, now.Add(100*365*24*time.Hour), 1)
	if err != nil {
		return outboxState{}, err
	}
	o := outboxState{Waiting: n}
	if len(first) == 1 && !first[0].Enqueued.IsZero() {
		o.Oldest = max(0, now.Sub(first[0].Enqueued))
	}
	return o, nil
}
