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
package io.nearline.common.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/**
 * What the local tools and the test kits need around the servers they start (a broker, a database, a
 * redis-server, a Connect worker): a free port on loopback, and a pause inside a wait loop.
 */
public final class LocalProcesses {

    /** The wait was interrupted: the thread's interrupt flag is set again, and the wait ends. */
    public static final class Interrupted extends RuntimeException {
        Interrupted(InterruptedException cause) {
            super("interrupted", cause);
        }
    }

    private LocalProcesses() {}

    /**
     * A port free on loopback now, chosen by the tool so that a server started again is found at it.
     * Loopback only: the servers here never listen beyond the machine.
     */
    public static int freePort() throws IOException {
        return freePort(() -> {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                return socket.getLocalPort();
            }
        });
    }

    /** A port the system offers, asked again if this process handed it out before. */
    interface PortSource {
        int next() throws IOException;
    }

    /**
     * Ports handed out by {@link #freePort} in this process. The system may offer a port it offered a
     * moment ago (nothing listens on it yet), and two servers of one run then get the same port: a broker
     * once got one port for both of its listeners. A port handed out is never handed out again here.
     */
    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    static int freePort(PortSource system) throws IOException {
        for (int tries = 0; tries < 100; tries++) {
            int port = system.next();
            synchronized (HANDED_OUT) {
                if (HANDED_OUT.add(port)) {
                    return port;
                }
            }
        }
        throw new IOException("the system offered only ports this process has handed out already, 100 times");
    }

    /**
     * Sleeps inside a wait loop. An interrupt ends the wait with {@link Interrupted} (the flag set
     * again), rather than letting the loop spin on to its deadline.
     */
    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Interrupted(e);
        }
    }
}
