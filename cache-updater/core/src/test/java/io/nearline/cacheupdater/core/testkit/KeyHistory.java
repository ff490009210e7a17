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
package io.nearline.cacheupdater.core.testkit;

import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.version.Version;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * The change history of one key as a source of truth would commit it — increasing SCNs, some deletes,
 * some commits re-serialised under a newer schema at the same SCN — and the ways a stream scrambles
 * it. The payload names key and version so that a test can check the winner's bytes, not just its version.
 */
public record KeyHistory(CacheKey key, List<CacheRecord> commits) {

    /** One delivery of a record to a writer. */
    public record Write(CacheKey key, CacheRecord record) {}

    public static KeyHistory random(CacheKey key, Random random, int length, double deleteRatio) {
        List<CacheRecord> commits = new ArrayList<>();
        long scn = random.nextInt(5);
        int schema = 1;
        for (int i = 0; i < length; i++) {
            scn += 1 + random.nextInt(3);
            if (random.nextInt(10) == 0) {
                schema++; // a schema upgrade mid-history
            }
            commits.add(record(key, Version.of(scn, schema), random.nextDouble() < deleteRatio));
            if (random.nextInt(8) == 0) {
                // the same commit re-serialised under a newer schema version: must win over its twin
                commits.add(record(key, Version.of(scn, schema + 1), false));
            }
        }
        return new KeyHistory(key, commits);
    }

    public static CacheRecord record(CacheKey key, Version version, boolean delete) {
        return delete ? CacheRecord.tombstone(version, 0) : CacheRecord.upsert(version, 0, payload(key, version));
    }

    public static byte[] payload(CacheKey key, Version version) {
        return (key.value() + "@" + version).getBytes(StandardCharsets.UTF_8);
    }

    /** The record that must win: the maximum version. */
    public CacheRecord winner() {
        return commits.stream().max(Comparator.comparing(CacheRecord::version)).orElseThrow();
    }

    /** The commits in a random order, with some of them delivered more than once. */
    public List<CacheRecord> scrambled(Random random, double duplicateRatio) {
        List<CacheRecord> out = new ArrayList<>(commits);
        for (CacheRecord c : commits) {
            if (random.nextDouble() < duplicateRatio) {
                out.add(c);
            }
        }
        Collections.shuffle(out, random);
        return out;
    }
}
