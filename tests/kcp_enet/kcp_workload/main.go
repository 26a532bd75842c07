// kcp_workload: a game-like kcp-go (Debian's golang-github-xtaci-kcp-dev,
// v5.6.1) client/server pair for rudpscope's tests, plain KCP on the wire (no
// block cipher, no FEC). See tests/kcp_enet/README.md.
//
//	kcp_workload server PORT DURATION_S SEED [DATASHARDS PARITYSHARDS]
//	kcp_workload client HOST:PORT DURATION_S SEED [DATASHARDS PARITYSHARDS]
//
// With shard counts (both ends must agree) kcp-go adds its FEC framing.
// Both ends send at 30 Hz a 20..120-byte message (length-prefixed) and every
// 0.8..1.6 s a 4096-byte one (kcp-go cuts it into MSS-sized segments). After
// DURATION_S the client sends a "bye" message; both ends stop sending, keep
// the session 2 s (retransmissions complete), then print kcp-go's
// DefaultSnmp counters (per process, so per direction of sending) and the
// session's RTT state as one JSON line.
package main

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"os"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	kcp "github.com/xtaci/kcp-go/v5"
)

const tick = 33 * time.Millisecond

func configure(s *kcp.UDPSession) {
	s.SetNoDelay(1, 10, 2, 1) // "fast" mode: nodelay, 10 ms interval, fast resend after 2 acks, no cwnd
	s.SetWindowSize(256, 256)
	s.SetMtu(1400)
	s.SetACKNoDelay(false)
	s.SetStreamMode(false)
}

func main() {
	if len(os.Args) < 5 {
		fmt.Fprintln(os.Stderr, "usage: kcp_workload server PORT DURATION SEED | client HOST:PORT DURATION SEED")
		os.Exit(2)
	}
	role := os.Args[1]
	duration, _ := strconv.Atoi(os.Args[3])
	seed, _ := strconv.Atoi(os.Args[4])
	ds, ps := 0, 0
	if len(os.Args) >= 7 {
		ds, _ = strconv.Atoi(os.Args[5])
		ps, _ = strconv.Atoi(os.Args[6])
	}
	var sess *kcp.UDPSession
	if role == "server" {
		l, err := kcp.ListenWithOptions(":"+os.Args[2], nil, ds, ps)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		sess, err = l.AcceptKCP()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		seed = seed*31 + 7
	} else {
		var err error
		sess, err = kcp.DialWithOptions(os.Args[2], nil, ds, ps)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	configure(sess)
	rng := rand.New(rand.NewSource(int64(seed)))

	var bye int32
	var recvMsgs, recvBursts, recvBytes, recvBad int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // reader: length-prefixed messages over the KCP byte stream
		defer wg.Done()
		r := bufio.NewReaderSize(sess, 65536)
		hdr := make([]byte, 4)
		for {
			if _, err := io.ReadFull(r, hdr); err != nil {
				return
			}
			n := binary.LittleEndian.Uint32(hdr)
			if n > 1<<20 {
				recvBad++
				return
			}
			buf := make([]byte, n)
			if _, err := io.ReadFull(r, buf); err != nil {
				return
			}
			recvBytes += int64(n)
			switch {
			case n == 3 && string(buf) == "bye":
				atomic.StoreInt32(&bye, 1)
			case n == 4096:
				recvBursts++
			default:
				recvMsgs++
			}
			for i := 4; i < len(buf); i++ {
				if buf[i] != byte(i) {
					recvBad++
					break
				}
			}
		}
	}()

	send := func(n int) {
		buf := make([]byte, 4+n)
		binary.LittleEndian.PutUint32(buf, uint32(n))
		for i := 4; i < n; i++ {
			buf[4+i] = byte(i)
		}
		if n == 3 {
			copy(buf[4:], "bye")
		}
		if _, err := sess.Write(buf); err != nil {
			fmt.Fprintln(os.Stderr, "write:", err)
		}
	}

	var sentMsgs, sentBursts int64
	var srtts []int
	start := time.Now()
	next := start
	nextBurst := start.Add(time.Duration(800+rng.Intn(800)) * time.Millisecond)
	for {
		now := time.Now()
		if role == "client" && now.Sub(start) >= time.Duration(duration)*time.Second {
			send(3)
			break
		}
		if role == "server" && (atomic.LoadInt32(&bye) == 1 || now.Sub(start) >= time.Duration(duration+20)*time.Second) {
			break
		}
		if !now.Before(next) {
			send(20 + rng.Intn(101))
			sentMsgs++
			if !now.Before(nextBurst) {
				send(4096)
				sentBursts++
				nextBurst = now.Add(time.Duration(800+rng.Intn(800)) * time.Millisecond)
			}
			srtts = append(srtts, int(sess.GetSRTT()))
			next = next.Add(tick)
		}
		time.Sleep(time.Until(next))
	}
	time.Sleep(2 * time.Second) // drain: retransmissions and acks complete
	snmp := kcp.DefaultSnmp.Copy()
	sort.Ints(srtts)
	med := 0
	if len(srtts) > 0 {
		med = srtts[len(srtts)/2]
	}
	out := map[string]interface{}{
		"role": role,
		"conv": sess.GetConv(),
		"snmp": snmp,
		"session": map[string]interface{}{
			"srtt": sess.GetSRTT(), "srttvar": sess.GetSRTTVar(), "rto": sess.GetRTO(),
			"srtt_median_per_tick": med,
		},
		"app": map[string]int64{
			"sent_msgs": sentMsgs, "sent_bursts": sentBursts, "recv_msgs": recvMsgs,
			"recv_bursts": recvBursts, "recv_bytes": recvBytes, "recv_bad": recvBad,
		},
	}
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
	sess.Close()
}
