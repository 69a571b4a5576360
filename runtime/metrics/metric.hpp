#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace prometheus {
class Counter;
class Gauge;
class Histogram;
template <typename T>
class Family;
}  // namespace prometheus

namespace ctrl::metrics {

// One counter time series. A cheap handle: copy it freely; it stays valid as long as the
// Registry that made it.
class Counter {
  public:
    explicit Counter(prometheus::Counter* impl) : impl_(impl) {}
    // Const: the handle does not change; the series it names does.
    void Inc(double by = 1.0) const;
    double Value() const;

  private:
    prometheus::Counter* impl_;
};

// One gauge time series (a handle, like Counter).
class Gauge {
  public:
    explicit Gauge(prometheus::Gauge* impl) : impl_(impl) {}
    void Set(double value);
    void Inc(double by = 1.0);
    void Dec(double by = 1.0);
    double Value() const;

  private:
    prometheus::Gauge* impl_;
};

// One histogram time series (a handle, like Counter).
class Histogram {
  public:
    explicit Histogram(prometheus::Histogram* impl) : impl_(impl) {}
    void Observe(double value);
    // Adds many observations at once: bucket_counts[i] more in bucket i (one per bound, then
    // +Inf), and their sum.
    void ObserveBuckets(const std::vector<double>& bucket_counts, double sum);
    // Number of observations and their sum, read back (for tests and benchmarks).
    uint64_t SampleCount() const;
    double SampleSum() const;

  private:
    prometheus::Histogram* impl_;
};

// A counter metric with fixed label names. WithLabelValues picks (creating on first use) the
// series for one set of label values, given in the order of the label names, as Go's client
// does; a wrong number of values is a programming error and aborts naming the metric.
class CounterFamily {
  public:
    CounterFamily(prometheus::Family<prometheus::Counter>* impl, std::string name, std::vector<std::string> labels)
        : impl_(impl), name_(std::move(name)), label_names_(std::move(labels)) {}
    Counter WithLabelValues(const std::vector<std::string>& values) const;
    const std::string& Name() const { return name_; }

  private:
    prometheus::Family<prometheus::Counter>* impl_;
    std::string name_;
    std::vector<std::string> label_names_;
};

// A gauge metric with fixed label names (see CounterFamily).
class GaugeFamily {
  public:
    GaugeFamily(prometheus::Family<prometheus::Gauge>* impl, std::string name, std::vector<std::string> labels)
        : impl_(impl), name_(std::move(name)), label_names_(std::move(labels)) {}
    Gauge WithLabelValues(const std::vector<std::string>& values) const;
    // Drops the series for these label values (no-op when absent): handles to it become invalid.
    void Remove(const std::vector<std::string>& values) const;
    const std::string& Name() const { return name_; }

  private:
    prometheus::Family<prometheus::Gauge>* impl_;
    std::string name_;
    std::vector<std::string> label_names_;
};

// A histogram metric with fixed label names and bucket bounds (see CounterFamily).
class HistogramFamily {
  public:
    HistogramFamily(prometheus::Family<prometheus::Histogram>* impl, std::string name, std::vector<std::string> labels,
                    std::vector<double> buckets)
        : impl_(impl), name_(std::move(name)), label_names_(std::move(labels)), buckets_(std::move(buckets)) {}
    Histogram WithLabelValues(const std::vector<std::string>& values) const;
    const std::string& Name() const { return name_; }
    const std::vector<double>& Buckets() const { return buckets_; }

  private:
    prometheus::Family<prometheus::Histogram>* impl_;
    std::string name_;
    std::vector<std::string> label_names_;
    std::vector<double> buckets_;
};

// Bucket bounds: start, start*factor, ... (count values), as prometheus.ExponentialBuckets.
std::vector<double> ExponentialBuckets(double start, double factor, int count);
// Bucket bounds: start, start+width, ... (count values), as prometheus.LinearBuckets.
std::vector<double> LinearBuckets(double start, double width, int count);

}  // namespace ctrl::metrics
