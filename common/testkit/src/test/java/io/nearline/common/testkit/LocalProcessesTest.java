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

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
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
