//go:build !linux

package boltdb

import bolt "go.etcd.io/bbolt"

// release does nothing where madvise's meaning for a shared file mapping
// is not Linux's: the kernel takes the pages back when it needs them.
func release(tx *bolt.Tx) {}
