package dev.muster.simulator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;

import org.junit.jupiter.api.Test;

/** The objects kubectl's typed commands send as protobuf are read as the JSON a real API server would store. */
class ProtobufObjectsTest {

    /** What {@code kubectl create namespace team-a} (v1.32) sends, captured on the wire. */
    private static final String CREATE_NAMESPACE = "6b3873000a0f0a0276311209"
            + "4e616d657370616365121e0a160a067465616d2d6112001a0022002a0032003800420012001a020a001a002200";

    @Test
    void aNamespaceAsKubectlCreatesItIsReadWithItsName() {
        assertThat(ProtobufObjects.read(HexFormat.of().parseHex(CREATE_NAMESPACE))).get().asString()
                .isEqualTo("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team-a\"}}");
    }

    @Test
    void aPriorityClassAConfigMapAndASecretAsKubectlCreatesThemAreRead() {
        // kubectl create priorityclass high --value=1000 --description="for the important"
        assertThat(read("6b3873000a250a147363686564756c696e672e6b38732e696f2f7631120d5072696f72697479436c61737312440a140a046869676812001a0022002a"
                + "0032003800420010e80718002211666f722074686520696d706f7274616e742a14507265656d70744c6f7765725072696f726974791a002200"))
                .isEqualTo("{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\",\"metadata\":{\"name\":\"high\"},\"value\":1000,"
                        + "\"globalDefault\":false,\"description\":\"for the important\",\"preemptionPolicy\":\"PreemptLowerPriority\"}");
        // kubectl create configmap cm1 --from-literal=a=b
        assertThat(read("6b3873000a0f0a0276311209436f6e6669674d6170121d0a130a03636d3112001a0022002a0032003800420012060a01611201621a002200"))
                .isEqualTo("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm1\"},\"data\":{\"a\":\"b\"}}");
        // kubectl create secret generic s1 --from-literal=a=b: data is bytes, base64 in JSON
        assertThat(read("6b3873000a0c0a0276311206536563726574121e0a120a02733112001a0022002a0032003800420012060a01611201621a001a002200"))
                .isEqualTo("{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s1\"},\"data\":{\"a\":\"Yg==\"}}");
    }

    private static String read(String hex) {
        return ProtobufObjects.read(HexFormat.of().parseHex(hex)).orElseThrow().toString();
    }

    @Test
    void anythingElseIsNotReadHere() {
        assertThat(ProtobufObjects.read("{\"kind\":\"Namespace\"}".getBytes())).isEmpty();
        assertThat(ProtobufObjects.read(HexFormat.of().parseHex("6b3873000a05"))).as("cut short").isEmpty();
    }
}
