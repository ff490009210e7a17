/*
 * Copyright 2026 The Nearline Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.nearline.lxctestbed.drillrunner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.kit.processes.Home;
import io.nearline.lxctestbed.testbed.LxcNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Measures a fault's effect on the network, through {@code lxc-testbed/bin/probe} run on this machine
 * or in a testbed node's namespace: whether a peer answers and how soon, the round trip and loss of
 * UDP datagrams, the rate of an upload. The echo and the sink it talks to run here, on the bridge's
 * address, for as long as the drill runs.
 */
final class Probe implements AutoCloseable {

    /**
     * One figure: null when there was none (no answer, nothing came back), with the reason; and, for the
     * link probes, the same figure for each way ({@code up}: from the node to this machine), else null.
     */
    record Reading(Double value, String error, Double up, Double down) {

        static Reading of(double value) {
            return new Reading(value, null, null, null);
        }

        /** A figure with each way's part (null where a way has none, e.g. nothing arrived to come back). */
        static Reading ofWays(double value, Double up, Double down) {
            return new Reading(value, null, up, down);
        }

        static Reading none(String why) {
            return new Reading(null, why, null, null);
        }

        /** No exact figure, but a bound: the value is at most {@code bound} ({@code why} says how that is known). */
        static Reading atMost(double bound, String why) {
            return new Reading(bound, why, null, null);
        }

        boolean bound() {
            return value != null && error != null;
        }

        boolean answered() {
            return value != null;
        }

        /** An exact figure: answered, and not a bound. */
        boolean exact() {
            return value != null && error == null;
        }

        boolean hasWays() {
            return up != null && down != null;
        }

        @Override
        public String toString() {
            if (value == null) {
                return "none (" + error + ")";
            }
            String ways = up == null && down == null ? "" : String.format(" (up %s, down %s)", way(up), way(down));
            return (error == null ? "" : "at most ") + String.format("%.1f", value) + ways;
        }

        private static String way(Double v) {
            return v == null ? "none" : String.format("%.1f", v);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int UPLOAD_BYTES = 64 * 1024;
    private static final int UPLOAD_SECONDS = 20;

    private final String address;
    private final DatagramSocket echo;
    private final ServerSocket sink;

    /** The echo and the sink on {@code address}, this machine's address on the testbed's bridge. */
    Probe(String address) {
        this.address = address;
        try {
            echo = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0));
            sink = new ServerSocket();
            sink.bind(new InetSocketAddress(InetAddress.getByName(address), 0));
        } catch (IOException e) {
            throw new ClusterException("cannot open the drill's probe servers on " + address + ": " + e.getMessage());
        }
        for (Thread server :
                List.of(new Thread(this::echoAll, "probe-echo"), new Thread(this::sinkAll, "probe-sink"))) {
            server.setDaemon(true);
            server.start();
        }
    }

    /** Milliseconds until {@code host:port} accepts, from {@code node} (null: this machine); none if it does not. */
    Reading connect(LxcNode node, String host, int port) {
        return run(node, List.of("answer", host, "" + port, "2"), "ms", null);
    }

    /** Milliseconds until {@code host:port} answers {@code request} (\r\n written as such); none if it does not. */
    Reading request(LxcNode node, String host, int port, String request) {
        return run(node, List.of("answer", host, "" + port, "2", request), "ms", null);
    }

    /** The median round trip, in ms, of 100 datagrams from {@code node} to the echo here, and of each way. */
    Reading roundTrip(LxcNode node) {
        return run(node, List.of("echo", address, "" + echo.getLocalPort(), "100"), "medianMs", "MedianMs");
    }

    /**
     * The share of 400 datagrams from {@code node} to the echo here that did not come back, in %; and of
     * each way: up, of those sent; down, of those that arrived (none when none arrived).
     */
    Reading loss(LxcNode node) {
        return run(node, List.of("echo", address, "" + echo.getLocalPort(), "400"), "lossPercent", "LossPercent");
    }

    /** The rate of a 64 KiB upload from {@code node} to the sink here, in kbit/s. */
    Reading upload(LxcNode node) {
        Reading r = run(
                node,
                List.of("upload", address, "" + sink.getLocalPort(), "" + UPLOAD_BYTES, "" + UPLOAD_SECONDS),
                "kbitPerSecond",
                null);
        // on a link shaped narrow and full of the job's own traffic the upload may not finish: its rate was
        // then below what finishing in time would have taken
        // (a connection that timed out included: its SYNs were queued behind the job's traffic)
        return !r.answered() && r.error() != null && r.error().contains("timed out")
                ? Reading.atMost(
                        UPLOAD_BYTES * 8 / 1000.0 / UPLOAD_SECONDS,
                        "the upload did not finish in " + UPLOAD_SECONDS + " s")
                : r;
    }

    /** @param ways the suffix of each way's field ({@code up...}, {@code down...}), or null for a figure with none */
    private static Reading run(LxcNode node, List<String> args, String field, String ways) {
        List<String> command = new ArrayList<>();
        command.add(Home.dir().resolve("lxc-testbed/bin/probe").toString());
        command.addAll(args);
        try {
            Process p = new ProcessBuilder(node == null ? command : node.inside(command))
                    .redirectErrorStream(true)
                    .start();
            String out;
            try (InputStream in = p.getInputStream()) {
                out = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
            }
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Reading.none("the probe did not finish");
            }
            JsonNode r = JSON.readTree(out.lines().reduce((a, b) -> b).orElse("{}"));
            JsonNode v = r.path(field);
            if (!v.isNumber()) {
                return Reading.none(r.path("error").asText(out));
            }
            return ways == null
                    ? Reading.of(v.asDouble())
                    : Reading.ofWays(v.asDouble(), number(r.path("up" + ways)), number(r.path("down" + ways)));
        } catch (IOException | RuntimeException e) {
            // the node's namespace gone (a killed node), or no python3 there: no figure, said why
            return Reading.none(String.valueOf(e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Reading.none("interrupted");
        }
    }

    private static Double number(JsonNode n) {
        return n.isNumber() ? n.asDouble() : null;
    }

    /**
     * Answers each datagram of a probe ({@code seq, session, kind}) with its seq and session, how many
     * data datagrams of the session have arrived, and when this one did ({@link System#nanoTime}, the
     * clock the nodes read too): so the probe tells each way's delay and loss apart. A count-only
     * request ({@code kind} 'c') is answered without being counted.
     */
    private void echoAll() {
        byte[] buf = new byte[64];
        Map<Integer, Integer> arrivedBySession = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, Integer> eldest) {
                return size() > 64; // a drill runs a probe at a time: the recent sessions are all it asks about
            }
        };
        while (!echo.isClosed()) {
            try {
                DatagramPacket d = new DatagramPacket(buf, buf.length);
                echo.receive(d);
                long at = System.nanoTime();
                if (d.getLength() < 9) {
                    continue;
                }
                ByteBuffer in = ByteBuffer.wrap(buf, 0, d.getLength());
                int seq = in.getInt();
                int session = in.getInt();
                int arrived = in.get() == 'd'
                        ? arrivedBySession.merge(session, 1, Integer::sum)
                        : arrivedBySession.getOrDefault(session, 0);
                byte[] answer = ByteBuffer.allocate(20)
                        .putInt(seq)
                        .putInt(session)
                        .putInt(arrived)
                        .putLong(at)
                        .array();
                echo.send(new DatagramPacket(answer, answer.length, d.getSocketAddress()));
            } catch (IOException e) {
                // closed, or one datagram that could not go back: the prober counts it lost
            }
        }
    }

    private void sinkAll() {
        byte[] buf = new byte[16 * 1024];
        while (!sink.isClosed()) {
            try (Socket s = sink.accept()) {
                s.setSoTimeout(30_000);
                InputStream in = s.getInputStream();
                while (in.read(buf) >= 0) {
                    // read to the end: the upload's rate is what got here
                }
                OutputStream out = s.getOutputStream();
                out.write('k');
                out.flush();
            } catch (IOException e) {
                // closed, or an upload cut off: the prober sees no answer
            }
        }
    }

    @Override
    public void close() {
        echo.close();
        try {
            sink.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
