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
package io.nearline.cacheupdater.storerocksdb;

import io.nearline.common.config.Check;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigDef;
import io.nearline.common.config.ConfigKey;
import io.nearline.common.config.ValueType;
import java.nio.file.Path;
import java.time.Duration;

/** Settings of the embedded RocksDB cache store. */
public record RocksDbStoreSettings(Path path, boolean syncWrites, Duration purgeInterval) {

    public static final ConfigKey<String> PATH = ConfigKey.required(
                    "rocksdb.path",
                    ValueType.STRING,
                    "Directory of the RocksDB database; created if missing. One process opens it at a time.")
            .checked(Check.notBlank());

    public static final ConfigKey<Boolean> SYNC_WRITES = ConfigKey.of(
            "rocksdb.sync-writes",
            ValueType.BOOLEAN,
            false,
            "fsync the write-ahead log on every write. Off, a write survives a process crash but not a machine "
                    + "crash; on, it survives both at a large cost in throughput.");

    public static final ConfigKey<Duration> PURGE_INTERVAL = ConfigKey.of(
                    "rocksdb.purge-interval",
                    ValueType.DURATION,
                    Duration.ofMinutes(1),
                    "How often expired records are deleted from disk (they are invisible to reads "
                            + "as soon as they expire). 0 turns the background purge off.")
            .checked(new Check<>("must be >= 0", d -> !d.isNegative()));

    public static final ConfigDef DEF = ConfigDef.of("RocksDB store", PATH, SYNC_WRITES, PURGE_INTERVAL);

    public static RocksDbStoreSettings from(Config config) {
        config.validate(DEF);
        return new RocksDbStoreSettings(Path.of(config.get(PATH)), config.get(SYNC_WRITES), config.get(PURGE_INTERVAL));
    }

    public static RocksDbStoreSettings at(Path path) {
        return new RocksDbStoreSettings(path, false, PURGE_INTERVAL.defaultValue());
    }

    public RocksDbStoreSettings withPurgeInterval(Duration interval) {
        return new RocksDbStoreSettings(path, syncWrites, interval);
    }
}
