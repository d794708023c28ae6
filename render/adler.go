package render

import "encoding/binary"

// adlerSum is hash/adler32's Checksum(p), eight bytes at a time: the
// standard library adds byte after byte, each sum waiting on the one
// before (about a tenth of writing a truecolour board, issue #50). For a
// word of bytes b0..b7 (b0 first), s1 grows by their sum and s2 by 8*s1
// plus 8*b0 + 7*b1 + ... + 1*b7; the even and odd bytes are summed, plain
// and weighted, in 16-bit lanes by one multiplication each, with no carry
// between lanes (a lane is at most 255*20). The sums are 64-bit and
// reduced modulo 65521 every adlerBlock bytes, far before they could
// overflow.
func adlerSum(p []byte) uint32 { return adlerUpdate(1, p) }

// adlerUpdate is the Adler-32 of the bytes summed in adler followed by p.
func adlerUpdate(adler uint32, p []byte) uint32 {
	const (
		mod   = 65521
		lanes = 0x00ff00ff00ff00ff
		ones  = 0x0001000100010001
	)
	s1, s2 := uint64(adler&0xffff), uint64(adler>>16)
	for len(p) > 0 {
		q := p
		if len(q) > adlerBlock {
			q = q[:adlerBlock]
		}
		p = p[len(q):]
		for len(q) >= 16 {
			w0 := binary.LittleEndian.Uint64(q)
			w1 := binary.LittleEndian.Uint64(q[8:])
			e0, o0 := w0&lanes, w0>>8&lanes
			e1, o1 := w1&lanes, w1>>8&lanes
			a0 := ((e0 + o0) * ones) >> 48
			a1 := ((e1 + o1) * ones) >> 48
			s2 += 16*s1 + 8*a0 + (e0*0x0008000600040002)>>48 + (o0*0x0007000500030001)>>48 +
				(e1*0x0008000600040002)>>48 + (o1*0x0007000500030001)>>48
			s1 += a0 + a1
			q = q[16:]
		}
		for len(q) >= 8 {
			w := binary.LittleEndian.Uint64(q)
			even, odd := w&lanes, w>>8&lanes // bytes 0,2,4,6 and 1,3,5,7
			s2 += 8*s1 + (even*0x0008000600040002)>>48 + (odd*0x0007000500030001)>>48
			s1 += ((even + odd) * ones) >> 48
			q = q[8:]
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

// adlerBlock is how many bytes adlerSum adds before reducing its sums:
// from s1 < 65521 and s2 < 65521, after n bytes s1 < 65521 + 255n and s2
// < 65521(n+1) + 255n(n+1)/2, well within 64 bits.
const adlerBlock = 1 << 20
