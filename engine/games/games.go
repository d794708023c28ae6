// Package games registers every game. Adding a game is one line here.
package games

import (
	_ "tessera/engine/closure"    // Closure
	_ "tessera/engine/elemental"  // Elemental Connection
	_ "tessera/engine/glorieta"   // Glorieta
	_ "tessera/engine/knotwork"   // Knotwork
	_ "tessera/engine/tilingking" // TilingKing
)
