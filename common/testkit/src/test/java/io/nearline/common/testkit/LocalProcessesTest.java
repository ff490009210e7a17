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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The two helpers every local server's start leans on: a port it can bind on loopback, a pause an interrupt ends. */
class LocalProcessesTest {

    @Test
    void aFreePortCanBeBoundOnLoopback() throws Exception {
        int port = LocalProcesses.freePort();
        assertTrue(port > 0 && port < 65536, "port " + port);
        try (ServerSocket bound = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertTrue(bound.isBound());
        }
    }

    /** The system offering a port twice (as it did to a broker's two listeners) gets asked again. */
    @Test
    void aPortIsNeverHandedOutTwice() throws Exception {
        int first = LocalProcesses.freePort();
        Iterator<Integer> offers = List.of(first, first, first + 1_000_000).iterator(); // beyond any real port
        assertEquals(first + 1_000_000, LocalProcesses.freePort(offers::next));
        Iterator<Integer> stuck = Stream.generate(() -> first).iterator();
        assertThrows(java.io.IOException.class, () -> LocalProcesses.freePort(stuck::next));
        Set<Integer> many = new HashSet<>();
        for (int i = 0; i < 500; i++) {
            assertTrue(many.add(LocalProcesses.freePort()), "handed out twice: " + many.size());
        }
    }

    @Test
    void anInterruptEndsTheWaitAndKeepsTheFlag() {
        Thread.currentThread().interrupt();
        try {
            assertThrows(LocalProcesses.Interrupted.class, () -> LocalProcesses.sleep(60_000));
            assertTrue(Thread.currentThread().isInterrupted(), "the flag is set again for the caller");
        } finally {
            Thread.interrupted(); // leave the test thread clean
        }
    }
}
