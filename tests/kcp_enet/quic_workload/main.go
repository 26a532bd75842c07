// A game-like QUIC client or server on quic-go v0.65.0, for
// tests/kcp_enet/lab.sh --proto quic.
//
//	quic_workload -mode server -addr :19443 -duration S -seed N -keylog FILE -messages FILE.jsonl
//	quic_workload -mode client -addr HOST:19443 -duration S -seed N -keylog FILE -messages FILE.jsonl
//
// One connection, ALPN "rudpscope-game", TLS 1.3 with a self-signed ECDSA
// P-256 certificate made at start (the client does not verify it). Both
// ends write their TLS secrets to -keylog (quic-go ignores SSLKEYLOGFILE)
// and a qlog to $QLOGDIR/<odcid>_<client|server>.sqlog when QLOGDIR is set.
//
// Traffic (RFC 9221 DATAGRAM frames and one bidirectional stream the client
// opens at start):
//
//	client -> server  60 Hz "input" DATAGRAMs (16-40 B); every 100 ms an
//	                  "event" on the stream (20-200 B); at the end a "bye" event
//	server -> client  20 Hz "state" DATAGRAMs (100-600 B); a "reply"
//	                  (20-200 B) on the stream for every event (and the bye)
//
// Every message body starts with a kind byte (1 input, 2 state, 3 event,
// 4 reply, 5 bye), its direction's message number (u32 LE, one counter for
// all kinds), CLOCK_MONOTONIC at sending (f64 LE seconds); a reply then
// carries the number of the message it answers (u32 LE). The rest is PRNG
// padding. On the stream each body is preceded by its length (u16 BE).
// Sizes come from a PCG seeded with -seed (one generator per sending loop).
//
// -messages gets one line per message sent or received:
// {"t": monotonic s, "ev": "send"|"recv", "kind", "n", "bytes" (body)
// [, "sent_t"] [, "re"] [, "off" (stream offset of the length prefix)]}.
// A datagram "send" is a SendDatagram call: quic-go may still drop it.
// At the end the client sends "bye", waits for its reply, closes the
// connection with application error 0 and keeps its socket open 1 s
// (quic-go answers late packets with the CONNECTION_CLOSE again). Each end
// prints one JSON object of counters on stdout, with conn.ConnectionStats().
//
// -chacha: Go's TLS 1.3 has no cipher-suite setting; the flag re-executes
// the program with GODEBUG=cpu.aes=off, so crypto/tls believes there is no
// AES hardware and puts TLS_CHACHA20_POLY1305_SHA256 first (the server then
// picks it). Initial packets stay AES-128-GCM (RFC 9001).
package main

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/big"
	mrand "math/rand/v2"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/qlog"
	"github.com/quic-go/quic-go/qlogwriter"
	"golang.org/x/sys/unix"
)

const alpn = "rudpscope-game"

const (
	kindInput = 1
	kindState = 2
	kindEvent = 3
	kindReply = 4
	kindBye   = 5
)

var kindNames = map[byte]string{kindInput: "input", kindState: "state", kindEvent: "event", kindReply: "reply", kindBye: "bye"}

const headerLen = 1 + 4 + 8

func monotonic() float64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		panic(err)
	}
	return float64(ts.Sec) + float64(ts.Nsec)/1e9
}

// side holds one end's counters and its message log.
type side struct {
	role   string
	mu     sync.Mutex
	log    *bufio.Writer
	number uint32
	sent   map[string]int
	recv   map[string]int
	bad    int
	dgErr  int
	dgErrs map[string]int
}

func newSide(role, path string) (*side, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	s := &side{role: role, log: bufio.NewWriter(f), sent: map[string]int{}, recv: map[string]int{}, dgErrs: map[string]int{}}
	for _, k := range kindNames {
		s.sent[k], s.recv[k] = 0, 0
	}
	return s, nil
}

func (s *side) writeLog(m map[string]any) {
	b, _ := json.Marshal(m)
	s.log.Write(b)
	s.log.WriteByte('\n')
}

// build makes a message body of size bytes and logs its sending (under the
// lock, so numbers rise through the log). off < 0: not on the stream.
func (s *side) build(kind byte, size int, re uint32, off int64, rng *mrand.Rand) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.number++
	now := monotonic()
	body := make([]byte, max(size, headerLen+4))
	body = body[:size]
	body[0] = kind
	binary.LittleEndian.PutUint32(body[1:], s.number)
	binary.LittleEndian.PutUint64(body[5:], math.Float64bits(now))
	p := headerLen
	if kind == kindReply {
		binary.LittleEndian.PutUint32(body[p:], re)
		p += 4
	}
	for i := p; i < len(body); i++ {
		body[i] = byte(rng.Uint32())
	}
	name := kindNames[kind]
	s.sent[name]++
	m := map[string]any{"t": now, "ev": "send", "kind": name, "n": s.number, "bytes": len(body)}
	if kind == kindReply {
		m["re"] = re
	}
	if off >= 0 {
		m["off"] = off
	}
	s.writeLog(m)
	return body
}

type parsed struct {
	kind byte
	n    uint32
	re   uint32
}

func (s *side) received(body []byte, off int64) (parsed, bool) {
	now := monotonic()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(body) < headerLen || kindNames[body[0]] == "" || (body[0] == kindReply && len(body) < headerLen+4) {
		s.bad++
		return parsed{}, false
	}
	p := parsed{kind: body[0], n: binary.LittleEndian.Uint32(body[1:])}
	name := kindNames[p.kind]
	s.recv[name]++
	m := map[string]any{"t": now, "ev": "recv", "kind": name, "n": p.n, "bytes": len(body),
		"sent_t": math.Float64frombits(binary.LittleEndian.Uint64(body[5:]))}
	if p.kind == kindReply {
		p.re = binary.LittleEndian.Uint32(body[headerLen:])
		m["re"] = p.re
	}
	if off >= 0 {
		m["off"] = off
	}
	s.writeLog(m)
	return p, true
}

func (s *side) sendDatagram(conn *quic.Conn, kind byte, size int, rng *mrand.Rand) {
	body := s.build(kind, size, 0, -1, rng)
	if err := conn.SendDatagram(body); err != nil {
		s.mu.Lock()
		s.dgErr++
		s.dgErrs[err.Error()]++
		s.mu.Unlock()
	}
}

// streamWriter writes length-prefixed messages and knows its offset.
type streamWriter struct {
	st  *quic.Stream
	off int64
}

func (w *streamWriter) send(s *side, kind byte, size int, re uint32, rng *mrand.Rand) error {
	body := s.build(kind, size, re, w.off, rng)
	buf := make([]byte, 2+len(body))
	binary.BigEndian.PutUint16(buf, uint16(len(body)))
	copy(buf[2:], body)
	n, err := w.st.Write(buf)
	w.off += int64(n)
	return err
}

// readMessages calls fn for every message read from the stream until it ends.
func readMessages(s *side, st *quic.Stream, fn func(parsed) error) error {
	r := bufio.NewReader(st)
	var off int64
	var lb [2]byte
	for {
		if _, err := io.ReadFull(r, lb[:]); err != nil {
			return err
		}
		body := make([]byte, binary.BigEndian.Uint16(lb[:]))
		if _, err := io.ReadFull(r, body); err != nil {
			return err
		}
		p, ok := s.received(body, off)
		off += int64(2 + len(body))
		if ok {
			if err := fn(p); err != nil {
				return err
			}
		}
	}
}

func receiveDatagrams(ctx context.Context, s *side, conn *quic.Conn) {
	for {
		b, err := conn.ReceiveDatagram(ctx)
		if err != nil {
			return
		}
		s.received(b, -1)
	}
}

// every calls fn at period intervals (fixed schedule, no drift) until stop.
func every(period time.Duration, stop <-chan struct{}, fn func()) {
	next := time.Now()
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		fn()
		next = next.Add(period)
		if d := time.Until(next); d > 0 {
			t.Reset(d)
		} else {
			next = time.Now()
			t.Reset(0)
		}
	}
}

func between(rng *mrand.Rand, lo, hi int) int { return lo + rng.IntN(hi-lo+1) }

// qlog: quic-go closes a connection's recorder (and flushes the file) at the
// end of the connection's run loop; count them so main waits for the file.
type waitTrace struct {
	qlogwriter.Trace
	wg *sync.WaitGroup
}

type waitRecorder struct {
	qlogwriter.Recorder
	wg *sync.WaitGroup
}

func (t waitTrace) AddProducer() qlogwriter.Recorder {
	r := t.Trace.AddProducer()
	if r == nil {
		return nil
	}
	t.wg.Add(1)
	return waitRecorder{r, t.wg}
}

func (r waitRecorder) Close() error {
	err := r.Recorder.Close()
	r.wg.Done()
	return err
}

var (
	qlogWG   sync.WaitGroup
	odcidMu  sync.Mutex
	odcidStr string
)

func tracer(ctx context.Context, isClient bool, connID quic.ConnectionID) qlogwriter.Trace {
	odcidMu.Lock()
	odcidStr = connID.String()
	odcidMu.Unlock()
	t := qlog.DefaultConnectionTracer(ctx, isClient, connID)
	if t == nil {
		return nil
	}
	return waitTrace{t, &qlogWG}
}

func selfSigned() (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "rudpscope-lab"},
		DNSNames:     []string{"rudpscope-lab"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}

func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }

func statsJSON(c quic.ConnectionStats) map[string]any {
	return map[string]any{
		"min_rtt_us": us(c.MinRTT), "latest_rtt_us": us(c.LatestRTT), "smoothed_rtt_us": us(c.SmoothedRTT),
		"mean_deviation_us": us(c.MeanDeviation), "congestion_window": c.CongestionWindow,
		"bytes_sent": c.BytesSent, "packets_sent": c.PacketsSent,
		"bytes_received": c.BytesReceived, "packets_received": c.PacketsReceived,
		"bytes_lost": c.BytesLost, "packets_lost": c.PacketsLost,
	}
}

func report(s *side, conn *quic.Conn, before quic.ConnectionStats, closeReason string, extra map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log.Flush()
	dgSent, dgRecv, evSent, evRecv := 0, 0, 0, 0
	for _, k := range []string{"input", "state"} {
		dgSent += s.sent[k]
		dgRecv += s.recv[k]
	}
	for _, k := range []string{"event", "reply", "bye"} {
		evSent += s.sent[k]
		evRecv += s.recv[k]
	}
	out := map[string]any{
		"role":      s.role,
		"connected": conn != nil,
		"datagrams": map[string]any{"sent": dgSent, "recv": dgRecv, "send_errors": s.dgErr, "send_error_texts": s.dgErrs},
		"events":    map[string]any{"sent": evSent, "recv": evRecv},
		"app":       map[string]any{"sent": s.sent, "recv": s.recv, "recv_bad": s.bad},
		"close":     closeReason,
	}
	odcidMu.Lock()
	out["odcid"] = odcidStr
	odcidMu.Unlock()
	if conn != nil {
		cs := conn.ConnectionState()
		out["tls"] = map[string]any{"version": tls.VersionName(cs.TLS.Version), "cipher": tls.CipherSuiteName(cs.TLS.CipherSuite),
			"alpn": cs.TLS.NegotiatedProtocol, "used_datagrams": cs.SupportsDatagrams.Remote && cs.SupportsDatagrams.Local}
		out["stats_before_close"] = statsJSON(before)
		out["stats"] = statsJSON(conn.ConnectionStats())
	}
	for k, v := range extra {
		out[k] = v
	}
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
}

func quicConfig() *quic.Config {
	return &quic.Config{
		EnableDatagrams:      true,
		Tracer:               tracer,
		HandshakeIdleTimeout: 10 * time.Second,
		MaxIdleTimeout:       30 * time.Second,
	}
}

func closeReason(conn *quic.Conn) string {
	err := context.Cause(conn.Context())
	var ae *quic.ApplicationError
	if errors.As(err, &ae) {
		who := "local"
		if ae.Remote {
			who = "remote"
		}
		return fmt.Sprintf("%s application error %d %q", who, ae.ErrorCode, ae.ErrorMessage)
	}
	if err == nil {
		return "open"
	}
	return err.Error()
}

func runServer(s *side, addr string, duration time.Duration, seed uint64, tlsConf *tls.Config) error {
	ua, err := net.ResolveUDPAddr("udp4", addr)
	if err != nil {
		return err
	}
	udp, err := net.ListenUDP("udp4", ua)
	if err != nil {
		return err
	}
	tr := &quic.Transport{Conn: udp}
	defer tr.Close()
	ln, err := tr.Listen(tlsConf, quicConfig())
	if err != nil {
		return err
	}
	defer ln.Close()
	actx, cancel := context.WithTimeout(context.Background(), duration+20*time.Second)
	defer cancel()
	conn, err := ln.Accept(actx)
	if err != nil {
		report(s, nil, quic.ConnectionStats{}, "no connection: "+err.Error(), nil)
		return err
	}
	ctx := conn.Context()
	go receiveDatagrams(ctx, s, conn)

	stop := make(chan struct{})
	var stopOnce sync.Once
	stopSending := func() { stopOnce.Do(func() { close(stop) }) }
	// 20 Hz state until the duration has passed or the client said bye.
	stateRng := mrand.New(mrand.NewPCG(seed, 2))
	var tickers sync.WaitGroup
	tickers.Add(1)
	go func() {
		defer tickers.Done()
		end := time.Now().Add(duration)
		every(time.Second/20, stop, func() {
			if time.Now().After(end) {
				stopSending()
				return
			}
			s.sendDatagram(conn, kindState, between(stateRng, 100, 600), stateRng)
		})
	}()

	byeDone := make(chan struct{})
	go func() {
		st, err := conn.AcceptStream(ctx)
		if err != nil {
			return
		}
		w := &streamWriter{st: st}
		replyRng := mrand.New(mrand.NewPCG(seed, 4))
		readMessages(s, st, func(p parsed) error {
			if p.kind != kindEvent && p.kind != kindBye {
				return nil
			}
			if err := w.send(s, kindReply, between(replyRng, 20, 200), p.n, replyRng); err != nil {
				return err
			}
			if p.kind == kindBye {
				stopSending()
				close(byeDone)
			}
			return nil
		})
	}()

	extra := map[string]any{}
	select {
	case <-byeDone:
		extra["bye"] = true
	case <-ctx.Done():
	case <-time.After(duration + 15*time.Second):
	}
	stopSending()
	tickers.Wait()
	// The client closes after the reply to its bye arrives; if its
	// CONNECTION_CLOSE is lost, our next probe gets it again.
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
	}
	before := conn.ConnectionStats()
	if ctx.Err() == nil {
		conn.CloseWithError(0, "server: no close from the client")
	}
	qlogWG.Wait()
	report(s, conn, before, closeReason(conn), extra)
	return nil
}

func runClient(s *side, addr string, duration time.Duration, seed uint64, tlsConf *tls.Config) error {
	ra, err := net.ResolveUDPAddr("udp4", addr)
	if err != nil {
		return err
	}
	udp, err := net.ListenUDP("udp4", &net.UDPAddr{})
	if err != nil {
		return err
	}
	tr := &quic.Transport{Conn: udp}
	defer tr.Close()
	dctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	conn, err := tr.Dial(dctx, ra, tlsConf, quicConfig())
	if err != nil {
		report(s, nil, quic.ConnectionStats{}, "dial failed: "+err.Error(), nil)
		return err
	}
	ctx := conn.Context()
	st, err := conn.OpenStreamSync(dctx)
	if err != nil {
		return err
	}
	go receiveDatagrams(ctx, s, conn)
	w := &streamWriter{st: st}

	byeN := make(chan uint32, 1)
	gotByeReply := make(chan struct{})
	go func() {
		var want uint32
		haveWant := false
		readMessages(s, st, func(p parsed) error {
			if !haveWant {
				select {
				case want = <-byeN:
					haveWant = true
				default:
				}
			}
			if p.kind == kindReply && haveWant && p.re == want {
				close(gotByeReply)
			}
			return nil
		})
	}()

	stop := make(chan struct{})
	var tickers sync.WaitGroup
	tickers.Add(2)
	inputRng := mrand.New(mrand.NewPCG(seed, 1))
	eventRng := mrand.New(mrand.NewPCG(seed, 3))
	go func() {
		defer tickers.Done()
		every(time.Second/60, stop, func() { s.sendDatagram(conn, kindInput, between(inputRng, 16, 40), inputRng) })
	}()
	var streamErr error
	go func() {
		defer tickers.Done()
		every(100*time.Millisecond, stop, func() {
			if streamErr == nil {
				streamErr = w.send(s, kindEvent, between(eventRng, 20, 200), 0, eventRng)
			}
		})
	}()
	select {
	case <-time.After(duration):
	case <-ctx.Done():
	}
	close(stop)
	tickers.Wait()

	extra := map[string]any{}
	if streamErr == nil && ctx.Err() == nil {
		s.mu.Lock()
		n := s.number + 1 // the number build will give the bye
		s.mu.Unlock()
		byeN <- n
		if err := w.send(s, kindBye, between(eventRng, 20, 200), 0, eventRng); err == nil {
			select {
			case <-gotByeReply:
				extra["bye_reply"] = true
			case <-ctx.Done():
			case <-time.After(10 * time.Second):
			}
		}
	}
	before := conn.ConnectionStats()
	conn.CloseWithError(0, "bye")
	qlogWG.Wait()
	// Keep the socket a while: quic-go answers the server's late packets with
	// the CONNECTION_CLOSE again.
	time.Sleep(time.Second)
	report(s, conn, before, closeReason(conn), extra)
	return nil
}

func main() {
	mode := flag.String("mode", "", "server or client")
	addr := flag.String("addr", "", "server: listen address (:19443); client: server address (HOST:19443)")
	dur := flag.Float64("duration", 10, "seconds of traffic")
	seed := flag.Uint64("seed", 1, "PRNG seed for message sizes")
	keylog := flag.String("keylog", "", "TLS key log file (NSS format)")
	messages := flag.String("messages", "", "message log (JSON lines)")
	chacha := flag.Bool("chacha", false, "make TLS pick ChaCha20-Poly1305 (re-executes with GODEBUG=cpu.aes=off)")
	flag.Parse()
	if (*mode != "server" && *mode != "client") || *addr == "" || *messages == "" {
		flag.Usage()
		os.Exit(2)
	}
	if *chacha && !strings.Contains(os.Getenv("GODEBUG"), "cpu.aes=off") {
		g := os.Getenv("GODEBUG")
		if g != "" {
			g += ","
		}
		exe, err := os.Executable()
		if err == nil {
			err = syscall.Exec(exe, os.Args, append(os.Environ(), "GODEBUG="+g+"cpu.aes=off"))
		}
		fmt.Fprintln(os.Stderr, "quic_workload: re-exec for -chacha failed:", err)
		os.Exit(1)
	}

	s, err := newSide(*mode, *messages)
	if err != nil {
		fmt.Fprintln(os.Stderr, "quic_workload:", err)
		os.Exit(1)
	}
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS13, NextProtos: []string{alpn}}
	if *keylog != "" {
		f, err := os.Create(*keylog)
		if err != nil {
			fmt.Fprintln(os.Stderr, "quic_workload:", err)
			os.Exit(1)
		}
		defer f.Close()
		tlsConf.KeyLogWriter = f
	}
	duration := time.Duration(*dur * float64(time.Second))
	if *mode == "server" {
		cert, err := selfSigned()
		if err != nil {
			fmt.Fprintln(os.Stderr, "quic_workload:", err)
			os.Exit(1)
		}
		tlsConf.Certificates = []tls.Certificate{cert}
		err = runServer(s, *addr, duration, *seed, tlsConf)
		if err != nil {
			fmt.Fprintln(os.Stderr, "quic_workload server:", err)
			os.Exit(1)
		}
	} else {
		tlsConf.ServerName = "rudpscope-lab"
		tlsConf.InsecureSkipVerify = true
		err = runClient(s, *addr, duration, *seed, tlsConf)
		if err != nil {
			fmt.Fprintln(os.Stderr, "quic_workload client:", err)
			os.Exit(1)
		}
	}
}
