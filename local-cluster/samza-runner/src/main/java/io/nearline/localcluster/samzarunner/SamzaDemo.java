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
package io.nearline.localcluster.samzarunner;

import io.nearline.cacheupdater.samza.CacheUpdaterApp;
import io.nearline.common.config.Config;
import io.nearline.localcluster.demo.Demo;
import io.nearline.localcluster.demo.DemoOptions;
import io.nearline.localcluster.kit.options.LocalRunOptions;
import io.nearline.localcluster.kit.stores.LocalStores;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.samza.runtime.LocalApplicationRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code demo --engine samza}: the broker in its own JVM, the app on the local runner, killed and restarted on cue. */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "The local stack with the cache-updater app on Samza.")
public final class SamzaDemo extends SamzaEngine implements Callable<Integer>, Demo.Engine {

    @Mixin
    DemoOptions options;

    @Override
    public Integer call() throws Exception {
        return Demo.run(options, this);
    }

    @Override
    LocalRunOptions run() {
        return options.run;
    }

    /** Killing the runner loses what was not yet checkpointed; the next start resumes from Samza's Kafka checkpoints. */
    @Override
    public AutoCloseable start(Config config, Path work) {
        LocalApplicationRunner runner = SamzaLocal.start(
                new CacheUpdaterApp(LocalStores.OPENER),
                SamzaLocal.config("cache-updater.properties", options.run, config, work));
        return () -> SamzaLocal.stop(runner);
    }
}
