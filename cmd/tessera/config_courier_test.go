package main

import (
	"runtime"
	"strings"
	"testing"
)

// TestConfigCourier: courier.workers defaults to the number of cores,
// reaches the service, and is refused (naming the key) out of 1..64.
func TestConfigCourier(t *testing.T) {
	none := func(string) string { return "" }
	c, err := parseConfig(nil, "", none)
	if err != nil {
		t.Fatal(err)
	}
	if c.Courier.Workers != runtime.NumCPU() || c.serviceConfig().Courier.Workers != runtime.NumCPU() {
		t.Fatalf("default courier.workers %d, want %d", c.Courier.Workers, runtime.NumCPU())
	}
	c, err = parseConfig([]byte("courier:\n  workers: 8\n"), "c.yaml", none)
	if err != nil || c.serviceConfig().Courier.Workers != 8 {
		t.Fatalf("courier.workers 8: %v", err)
	}
	for _, bad := range []string{"0", "-1", "65"} {
		_, err := parseConfig([]byte("courier:\n  workers: "+bad+"\n"), "c.yaml", none)
		if err == nil || !strings.Contains(err.Error(), "courier.workers") {
			t.Fatalf("courier.workers %s: %v", bad, err)
		}
	}
}
