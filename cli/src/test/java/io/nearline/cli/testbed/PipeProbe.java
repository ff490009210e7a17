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
package io.nearline.cli.testbed;

import java.io.InputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * The receiving end of a pipe measurement, run by {@link LxcTestbedIT} inside a node's network
 * namespace: {@code tcp ADDRESS PORT} counts the bytes of one connection and the time from the first
 * to the last; {@code udp ADDRESS PORT} counts datagrams until none comes for two seconds after the first. Prints
 * {@code READY} once listening, then its count.
 */
public final class PipeProbe {

    private PipeProbe() {}

    public static void main(String[] args) throws Exception {
        InetSocketAddress at = new InetSocketAddress(args[1], Integer.parseInt(args[2]));
        if (args[0].equals("tcp")) {
            try (ServerSocket server = new ServerSocket()) {
                server.bind(at);
                System.out.println("READY");
                try (Socket s = server.accept();
                        InputStream in = s.getInputStream()) {
                    byte[] buf = new byte[65536];
                    long bytes = 0;
                    long first = 0;
                    long last = 0;
                    for (int n; (n = in.read(buf)) > 0; ) {
                        last = System.nanoTime();
                        first = first == 0 ? last : first;
                        bytes += n;
                    }
                    System.out.println("bytes " + bytes + " nanos " + (last - first));
                }
            }
        } else {
            try (DatagramSocket socket = new DatagramSocket(at)) {
                socket.setSoTimeout(10_000); // the first may take a while; then none for 2 s ends it
                System.out.println("READY");
                long received = 0;
                DatagramPacket p = new DatagramPacket(new byte[2048], 2048);
                try {
                    while (true) {
                        socket.receive(p);
                        received++;
                        socket.setSoTimeout(2000);
                    }
                } catch (SocketTimeoutException e) {
                    System.out.println("datagrams " + received);
                }
            }
        }
    }
}
