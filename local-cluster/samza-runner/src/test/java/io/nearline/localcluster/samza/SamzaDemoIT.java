package io.nearline.localcluster.samza;

import io.nearline.localcluster.replay.cdc.DemoSuite;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** The demo suite on Samza (broker in its own JVM). */
class SamzaDemoIT extends DemoSuite {

    @Override
    protected int demo(List<String> args) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of("--kafka-jar", System.getProperty("nearline.kafka.jar")));
        return new CommandLine(new SamzaDemo()).execute(all.toArray(String[]::new));
    }
}
