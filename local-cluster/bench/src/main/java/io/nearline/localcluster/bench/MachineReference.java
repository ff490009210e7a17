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
package io.nearline.localcluster.bench;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The machine's own speed, measured in the same run as a bench's figures: the machines here are
 * shared and drift by 2 to 3 times from day to day, so a figure is read against this one. A fixed
 * loop on one thread (SHA-256 over a 1 MiB buffer), the best of three 300 ms rounds.
 */
final class MachineReference {

    private static final int ROUNDS = 3;
    private static final long ROUND_NANOS = 300_000_000L;

    private MachineReference() {}

    /** MiB hashed a second by one thread. */
    static double cpuMiBPerSec() {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
        byte[] buffer = new byte[1 << 20];
        for (int i = 0; i < buffer.length; i++) {
            buffer[i] = (byte) i;
        }
        double best = 0;
        for (int round = 0; round < ROUNDS; round++) {
            long start = System.nanoTime();
            long elapsed;
            int mib = 0;
            do {
                sha.update(buffer);
                buffer[mib % buffer.length] ^= sha.digest()[0]; // each round's input depends on the last digest
                mib++;
                elapsed = System.nanoTime() - start;
            } while (elapsed < ROUND_NANOS);
            best = Math.max(best, mib / (elapsed / 1e9));
        }
        return best;
    }
}
