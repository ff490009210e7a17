package io.nearline.localcluster.flink;

import io.nearline.cacheupdater.testkit.DemoSuite;
import picocli.CommandLine;

import java.util.List;

/** The demo suite on Flink. */
class FlinkDemoIT extends DemoSuite {

    @Override
    protected int demo(List<String> args) {
        return new CommandLine(new FlinkDemo()).execute(args.toArray(String[]::new));
    }
}
