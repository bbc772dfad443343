{{/* The release's name for a service's objects, e.g. muster-queue-service. */}}
{{- define "muster.name" -}}
{{- printf "%s-%s" .root.Release.Name .service | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels on every object, Kubernetes' recommended ones. */}}
{{- define "muster.labels" -}}
app.kubernetes.io/name: {{ .service }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/component: {{ .component | default "scheduler" }}
app.kubernetes.io/part-of: muster
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{/* What selects a service's pods. */}}
{{- define "muster.selector" -}}
app.kubernetes.io/name: {{ .service }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end -}}

{{- define "muster.image" -}}
{{ .root.Values.image.registry }}/{{ .root.Values.image.repository }}/{{ .service }}:{{ .root.Values.image.tag | default .root.Chart.AppVersion }}
{{- end -}}

{{/* The Kafka bootstrap servers: Strimzi's TLS listener, or the ones given. */}}
{{- define "muster.kafkaBootstrap" -}}
{{- if .Values.strimzi.enabled -}}
{{ .Values.strimzi.cluster }}-kafka-bootstrap:9093
{{- else -}}
{{ required "kafka.bootstrapServers is required when strimzi.enabled is false" .Values.kafka.bootstrapServers }}
{{- end -}}
{{- end -}}

{{/*
A service's pod: the container, its configuration, Kafka credentials and probes. The settings a service reads
come from its application.properties (a ConfigMap); secrets come from the environment only.
*/}}
{{- define "muster.podTemplate" -}}
{{- $values := index .root.Values .key -}}
metadata:
  labels:
    {{- include "muster.labels" . | nindent 4 }}
  annotations:
    # A changed configuration rolls the pods.
    checksum/config: {{ include (print .root.Template.BasePath "/config.yaml") .root | sha256sum }}
spec:
  serviceAccountName: {{ include "muster.name" . }}
  {{- with .root.Values.imagePullSecrets }}
  imagePullSecrets:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  securityContext:
    runAsNonRoot: true
    seccompProfile: {type: RuntimeDefault}
  # Long enough for a clean stop to commit what it consumed and close its watches.
  terminationGracePeriodSeconds: 30
  topologySpreadConstraints:
    - maxSkew: 1
      topologyKey: {{ .root.Values.topologySpread.topologyKey }}
      whenUnsatisfiable: {{ .root.Values.topologySpread.whenUnsatisfiable }}
      labelSelector:
        matchLabels:
          {{- include "muster.selector" . | nindent 10 }}
  {{- with $values.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $values.tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  containers:
    - name: {{ .service }}
      image: {{ include "muster.image" . }}
      imagePullPolicy: {{ .root.Values.image.pullPolicy }}
      ports:
        - {name: http, containerPort: {{ .port }}, protocol: TCP}
      env:
        - {name: QUARKUS_CONFIG_LOCATIONS, value: /etc/muster/config/application.properties}
        # Who calls, as the fleet's and the members' API servers log it and their audit shows.
        - {name: KUBERNETES_USER_AGENT, value: {{ printf "muster-%s/%s" .service (.root.Values.image.tag | default .root.Chart.AppVersion) | quote }}}
        {{- with .root.Values.monitoring.tracing.otlpEndpoint }}
        - {name: QUARKUS_OTEL_SDK_DISABLED, value: "false"}
        - {name: QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT, value: {{ . | quote }}}
        {{- end }}
        {{- if .root.Values.monitoring.jsonLogs }}
        - {name: QUARKUS_LOG_CONSOLE_JSON_ENABLED, value: "true"}
        {{- end }}
        {{- if .instanceId }}
        # This pod's name, the same across its restarts: its transactional id, which fences the one its crashed
        # predecessor left open at once, instead of after Kafka's transaction timeout.
        - name: {{ .instanceId }}
          valueFrom: {fieldRef: {fieldPath: metadata.name}}
        {{- end }}
        {{- if .root.Values.strimzi.enabled }}
        - name: KAFKA_SASL_JAAS_CONFIG
          valueFrom: {secretKeyRef: {name: {{ .kafkaUser }}, key: sasl.jaas.config}}
        - name: KAFKA_SSL_TRUSTSTORE_PASSWORD
          valueFrom: {secretKeyRef: {name: {{ .root.Values.strimzi.cluster }}-cluster-ca-cert, key: ca.password}}
        {{- end }}
      readinessProbe:
        httpGet: {path: /q/health/ready, port: http}
        periodSeconds: 5
        failureThreshold: 3
      livenessProbe:
        httpGet: {path: /q/health/live, port: http}
        initialDelaySeconds: 30
        periodSeconds: 10
        failureThreshold: 6
      startupProbe:
        httpGet: {path: /q/health/started, port: http}
        periodSeconds: 2
        failureThreshold: 60
      resources:
        {{- toYaml $values.resources | nindent 8 }}
      securityContext:
        allowPrivilegeEscalation: false
        readOnlyRootFilesystem: true
        capabilities: {drop: [ALL]}
      volumeMounts:
        - {name: config, mountPath: /etc/muster/config, readOnly: true}
        - {name: tmp, mountPath: /tmp}
        {{- if .root.Values.strimzi.enabled }}
        - {name: kafka-ca, mountPath: /etc/muster/kafka-ca, readOnly: true}
        {{- end }}
        {{- if and .members .root.Values.members }}
        - {name: members, mountPath: /etc/muster/members, readOnly: true}
        {{- end }}
  volumes:
    - name: config
      configMap: {name: {{ include "muster.name" . }}}
    - name: tmp
      emptyDir: {}
    {{- if .root.Values.strimzi.enabled }}
    - name: kafka-ca
      secret:
        secretName: {{ .root.Values.strimzi.cluster }}-cluster-ca-cert
        items: [{key: ca.p12, path: ca.p12}]
    {{- end }}
    {{- if and .members .root.Values.members }}
    # Each member's kubeconfig as <name>.kubeconfig: the directory placement and status sync read members from.
    - name: members
      projected:
        sources:
          {{- range .root.Values.members }}
          - secret:
              name: {{ .secretName }}
              items: [{key: kubeconfig, path: {{ printf "%s.kubeconfig" .name }}}]
          {{- end }}
    {{- end }}
{{- end -}}

{{/* The Service in front of a service's pods: its views and metrics; every instance answers, a standby's views with 503. */}}
{{- define "muster.service" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "muster.name" . }}
  labels:
    {{- include "muster.labels" . | nindent 4 }}
spec:
  selector:
    {{- include "muster.selector" . | nindent 4 }}
  ports:
    - {name: http, port: {{ .port }}, targetPort: http, protocol: TCP}
{{- end -}}
