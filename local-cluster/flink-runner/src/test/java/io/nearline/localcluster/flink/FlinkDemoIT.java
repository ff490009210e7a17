package io.nearline.localcluster.flink;

import io.nearline.localcluster.replay.cdc.DemoSuite;
import java.util.List;
import picocli.CommandLine;

/** The demo suite on Flink. */
class FlinkDemoIT extends DemoSuite {

    @Override
    protected int demo(List<String> args) {
        return new CommandLine(new FlinkDemo()).execute(args.toArray(String[]::new));
    }
}
