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

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import io.nearline.common.events.ChangeEventText;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * A synthetic change stream for benchmarks: {@code events} commits over {@code keys} keys chosen
 * uniformly, SCNs growing per source partition, 10 % deletes, a schema upgrade half-way, payloads of
 * about 100 bytes. Same seed, same file.
 */
public final class ChangeEventGenerator {

    private static final int PARTITIONS = 16;

    private ChangeEventGenerator() {}

    /** One change of table {@code profile}, a small JSON payload naming its SCN (none for a delete): for tests. */
    public static ChangeEvent event(String key, int partition, long scn, boolean delete) {
        return ChangeEvent.newBuilder()
                .setTable("profile")
                .setKey(key)
                .setPartition(partition)
                .setScn(scn)
                .setOp(delete ? Op.DELETE : Op.UPSERT)
                .setSchemaVersion(1)
                .setPayload(delete ? null : ByteBuffer.wrap(("{\"scn\":" + scn + "}").getBytes(StandardCharsets.UTF_8)))
                .setCommitTimeMillis(0)
                .build();
    }

    public static void write(Path file, long events, int keys, long seed) {
        Random random = new Random(seed);
        long[] scn = new long[PARTITIONS];
        byte[] filler = new byte[64];
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (long i = 0; i < events; i++) {
                int k = random.nextInt(keys);
                int partition = k % PARTITIONS;
                boolean delete = random.nextInt(10) == 0;
                for (int b = 0; b < filler.length; b++) {
                    filler[b] = (byte) ('a' + random.nextInt(26));
                }
                ChangeEvent e = ChangeEvent.newBuilder()
                        .setTable("profile")
                        .setKey("member:" + k)
                        .setPartition(partition)
                        .setScn(++scn[partition])
                        .setOp(delete ? Op.DELETE : Op.UPSERT)
                        .setSchemaVersion(i < events / 2 ? 1 : 2)
                        .setPayload(
                                delete
                                        ? null
                                        : ByteBuffer.wrap(("{\"id\":" + k + ",\"headline\":\""
                                                        + new String(filler, StandardCharsets.US_ASCII) + "\"}")
                                                .getBytes(StandardCharsets.UTF_8)))
                        .setCommitTimeMillis(0)
                        .build();
                out.write(ChangeEventText.format(e));
                out.newLine();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A synthetic snapshot for benchmarks: one UPSERT row per key (member:0 .. member:rows-1), each
     * with its own SCN, payloads of about 100 bytes. Without a header line: each partition's
     * high-watermark is its largest row SCN.
     */
    public static void writeSnapshot(Path file, int rows) {
        long[] scn = new long[PARTITIONS];
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int k = 0; k < rows; k++) {
                int partition = k % PARTITIONS;
                ChangeEvent e = ChangeEvent.newBuilder()
                        .setTable("profile")
                        .setKey("member:" + k)
                        .setPartition(partition)
                        .setScn(++scn[partition])
                        .setOp(Op.UPSERT)
                        .setSchemaVersion(2)
                        .setPayload(ByteBuffer.wrap(
                                ("{\"id\":" + k + ",\"headline\":\"" + "snapshot row ".repeat(5) + "\"}")
                                        .getBytes(StandardCharsets.UTF_8)))
                        .setCommitTimeMillis(0)
                        .build();
                out.write(ChangeEventText.format(e));
                out.newLine();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
