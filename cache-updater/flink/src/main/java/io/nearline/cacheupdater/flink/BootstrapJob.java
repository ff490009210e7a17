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
package io.nearline.cacheupdater.flink;

import io.nearline.engines.flinkkit.FlinkJobMain;

/**
 * The bootstrapper as a job of its own (cdc-bootstrap): the bootstrap topic through the same
 * decode, keyBy and SCN-ordered write as the cache updater, each row refreshing its TTL. From the
 * cache-updater jar: {@code flink run -c io.nearline.cacheupdater.flink.BootstrapJob
 * nearline-cache-updater-flink.jar --config cache-updater.yaml [--set key=value ...]}.
 */
public final class BootstrapJob {

    private BootstrapJob() {}

    public static void main(String[] args) {
        FlinkJobMain.run(
                "nearline-cdc-bootstrap",
                args,
                (env, config) -> CacheUpdaterJob.define(
                        env,
                        CacheUpdaterIo.kafka(config, CacheUpdaterIo.Inputs.BOOTSTRAP, CacheUpdaterIo.Reading.LIVE),
                        config));
    }
}
