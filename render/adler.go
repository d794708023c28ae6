package render

import "encoding/binary"

// adlerSum is hash/adler32's Checksum(p), computed 128 bytes at a time:
// the standard library adds byte after byte, each sum waiting on the one
// before, and was about a tenth of writing a truecolour board (issue
// #50). See adlerUpdate.
func adlerSum(p []byte) uint32 { return adlerUpdate(1, p) }

// adlerUpdate is the Adler-32 of the bytes summed in adler followed by p.
//
// Over a chunk of L bytes b_0..b_{L-1}, s1 grows by their sum and s2 by
// L*s1 + sum of (L-t)*b_t. Reading the chunk as n words of 8 bytes, the
// byte i of word m has L-t = 8(n-1-m) + (8-i). So the chunk needs, for
// each byte position i of a word, the sum P_i of its bytes over the
// words, and the sum Q_i of P_i before each word (which weighs byte i of
// word m by n-1-m). The eight P_i and Q_i are kept in the 16-bit lanes of
// four words (the even bytes and the odd), added a word at a time without
// carries between lanes (two words a step: Q grows by 2P plus the first
// word's bytes, P by both words'): with n = 16, a P lane is at most 255*16 and a Q
// lane 255*120, both under 65536. The lanes are summed into 64-bit sums
// at the end of each chunk, and reduced modulo 65521 every adlerBlock
// bytes, far before those could overflow.
func adlerUpdate(adler uint32, p []byte) uint32 {
	const (
		mod   = 65521
		lanes = 0x00ff00ff00ff00ff
		chunk = 128 // 16 words
	)
	s1, s2 := uint64(adler&0xffff), uint64(adler>>16)
	for len(p) > 0 {
		q := p
		if len(q) > adlerBlock {
			q = q[:adlerBlock]
		}
		p = p[len(q):]
		for len(q) >= chunk {
			var pe, po, qe, qo uint64
			c := q[:chunk:chunk]
			for k := 0; k < chunk; k += 16 {
				w0 := binary.LittleEndian.Uint64(c[k:])
				w1 := binary.LittleEndian.Uint64(c[k+8:])
				e0, o0 := w0&lanes, w0>>8&lanes
				qe += 2*pe + e0
				qo += 2*po + o0
				pe += e0 + w1&lanes
				po += o0 + w1>>8&lanes
			}
			// lane j of pe is P_{2j}, of po P_{2j+1}; weights 8-i.
			sum := hsum16(pe) + hsum16(po)
			weighted := 8*(pe&0xffff) + 6*(pe>>16&0xffff) + 4*(pe>>32&0xffff) + 2*(pe>>48) +
				7*(po&0xffff) + 5*(po>>16&0xffff) + 3*(po>>32&0xffff) + (po >> 48)
			s2 += chunk*s1 + 8*(hsum16(qe)+hsum16(qo)) + weighted
			s1 += sum
			q = q[chunk:]
		}
		for _, b := range q {
			s1 += uint64(b)
			s2 += s1
		}
		s1 %= mod
		s2 %= mod
	}
	return uint32(s2<<16 | s1)
}

// hsum16 is the sum of a word's four 16-bit lanes.
func hsum16(x uint64) uint64 {
	y := x&0x0000ffff0000ffff + x>>16&0x0000ffff0000ffff
	return y&0xffffffff + y>>32
}

// adlerBlock is how many bytes adlerUpdate adds before reducing its sums:
// from s1 < 65521 and s2 < 65521, after n bytes s1 < 65521 + 255n and s2
// < 65521(n+1) + 255n(n+1)/2, well within 64 bits.
const adlerBlock = 1 << 20
