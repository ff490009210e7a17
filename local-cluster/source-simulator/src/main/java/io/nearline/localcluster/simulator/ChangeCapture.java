package io.nearline.localcluster.simulator;

import io.nearline.common.avro.ChangeEvent;

/**
 * Where the source of truth publishes each commit, as a change-capture stream does (a CDC topic in
 * the local stack, a list in tests). Called in commit order within a partition.
 */
@FunctionalInterface
public interface ChangeCapture {
    void publish(ChangeEvent event);

    ChangeCapture NONE = event -> {};
}
