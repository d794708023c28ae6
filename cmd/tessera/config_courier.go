package main

import (
	"fmt"
	"runtime"

	"tessera/service"
)

// checkCourier refuses a courier.workers the service would not take,
// naming the key. Its default (the number of cores) is set before the
// file is read, so that a 0 written in the file is refused, not replaced.
func (c *Config) checkCourier() error {
	if c.Courier.Workers < 1 || c.Courier.Workers > service.MaxCourierWorkers {
		return fmt.Errorf("config: courier.workers %d: give from 1 to %d games delivered at once (default: the number of cores, %d here)",
			c.Courier.Workers, service.MaxCourierWorkers, runtime.NumCPU())
	}
	return nil
}
