package io.nearline.localcluster.samza;

import io.nearline.cacheupdater.samza.CacheUpdaterApp;
import io.nearline.common.config.Config;
import io.nearline.localcluster.demo.Demo;
import io.nearline.localcluster.demo.DemoOptions;
import io.nearline.localcluster.kit.LocalRunOptions;
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
                new CacheUpdaterApp(), SamzaLocal.config("cache-updater.properties", options.run, config, work));
        return () -> SamzaLocal.stop(runner);
    }
}
