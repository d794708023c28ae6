package tournament

// perfectMatching reports whether the graph of n vertices whose edges
// adj gives (adj[v] lists v's neighbours) has a perfect matching: every
// vertex paired. It is Edmonds' blossom algorithm for a maximum
// matching, O(n³), so that asking whether the rest of a round can still
// be paired (C.4) costs the same when it cannot as when it can (a search
// by backtracking takes exponential time to prove a round unpairable).
func perfectMatching(n int, adj [][]int) bool {
	if n%2 == 1 {
		return false
	}
	match := make([]int, n)
	for i := range match {
		match[i] = -1
	}
	// A greedy start leaves the augmenting search less to do.
	for v := 0; v < n; v++ {
		if match[v] >= 0 {
			continue
		}
		for _, u := range adj[v] {
			if match[u] < 0 {
				match[v], match[u] = u, v
				break
			}
		}
	}
	parent := make([]int, n)
	base := make([]int, n)
	used := make([]bool, n)
	blossom := make([]bool, n)
	queue := make([]int, 0, n)
	lca := func(a, b int) int {
		seen := make([]bool, n)
		for {
			a = base[a]
			seen[a] = true
			if match[a] < 0 {
				break
			}
			a = parent[match[a]]
		}
		for {
			b = base[b]
			if seen[b] {
				return b
			}
			b = parent[match[b]]
		}
	}
	markPath := func(v, b, child int) {
		for base[v] != b {
			blossom[base[v]], blossom[base[match[v]]] = true, true
			parent[v] = child
			child = match[v]
			v = parent[match[v]]
		}
	}
	// augment searches from the free vertex root for an augmenting path
	// and flips it; it reports whether it found one.
	augment := func(root int) bool {
		for i := range used {
			used[i], parent[i], base[i] = false, -1, i
		}
		used[root] = true
		queue = append(queue[:0], root)
		for h := 0; h < len(queue); h++ {
			v := queue[h]
			for _, to := range adj[v] {
				if base[v] == base[to] || match[v] == to {
					continue
				}
				if to == root || (match[to] >= 0 && parent[match[to]] >= 0) {
					cur := lca(v, to)
					for i := range blossom {
						blossom[i] = false
					}
					markPath(v, cur, to)
					markPath(to, cur, v)
					for i := 0; i < n; i++ {
						if blossom[base[i]] {
							base[i] = cur
							if !used[i] {
								used[i] = true
								queue = append(queue, i)
							}
						}
					}
				} else if parent[to] < 0 {
					parent[to] = v
					if match[to] < 0 {
						for u := to; u >= 0; {
							pv := parent[u]
							next := match[pv]
							match[u], match[pv] = pv, u
							u = next
						}
						return true
					}
					used[match[to]] = true
					queue = append(queue, match[to])
				}
			}
		}
		return false
	}
	for v := 0; v < n; v++ {
		if match[v] < 0 && !augment(v) {
			return false // a vertex no augmenting path reaches stays unpaired
		}
	}
	return true
}
