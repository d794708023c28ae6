package knotwork

import (
	"testing"

	"tessera/engine/enginetest"
)

// TestConformance is the suite every game passes (enginetest.Run).
func TestConformance(t *testing.T) { enginetest.Run(t, ID) }
