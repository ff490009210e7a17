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
package io.nearline.localcluster.kit.baselines;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.core.testkit.InMemoryCacheStore;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.CacheStore;
import io.nearline.common.testkit.ChangeEventGenerator;
import org.junit.jupiter.api.Test;

public class BlindWritesTest {

    public static final ChangeEvent NEWER = ChangeEventGenerator.event("k1", 0, 20, false);
    public static final ChangeEvent OLDER = ChangeEventGenerator.event("k1", 0, 10, false);

    /** The job's writer over {@code store}: the newer change, then a replay of an older one. */
    public static Object versionAfterAReplay(CacheStore store) {
        ScnOrderedWriter writer = new ScnOrderedWriter(store, WriterSettings.defaults(), Metrics.NONE);
        CacheKey key = ChangeEvents.cacheKey(NEWER);
        writer.write(key, ChangeEvents.cacheRecord(NEWER));
        writer.write(key, ChangeEvents.cacheRecord(OLDER));
        return CacheRecordCodec.decodeVersion(store.get(key).orElseThrow().value());
    }

    @Test
    void theOrderedWriteKeepsTheNewerChange() {
        CacheStore plain = new InMemoryCacheStore();
        assertEquals(ChangeEvents.cacheRecord(NEWER).version(), versionAfterAReplay(plain));
    }

    @Test
    void aBlindWriteLetsTheReplayOverwriteIt() {
        long before = BlindWrites.upserts();
        CacheStore blind = BlindWrites.around(new InMemoryCacheStore());
        assertEquals(ChangeEvents.cacheRecord(OLDER).version(), versionAfterAReplay(blind), "no version compare");
        assertEquals(2, BlindWrites.upserts() - before, "both writes went through as upserts");
    }
}
