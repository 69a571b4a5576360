#include "ctrl/metrics/metric.hpp"

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>

#include <cstdlib>
#include <exception>
#include <iostream>

namespace ctrl::metrics {
namespace {

[[noreturn]] void Abort(const std::string& name, const std::string& what) {
    std::cerr << "ctrl::metrics: metric " << name << ": " << what << std::endl;
    std::abort();
}

prometheus::Labels ToLabels(const std::string& name, const std::vector<std::string>& names,
                            const std::vector<std::string>& values) {
    if (names.size() != values.size()) {
        Abort(name, "expected " + std::to_string(names.size()) + " label values, got " + std::to_string(values.size()));
    }
    prometheus::Labels labels;
    for (std::size_t i = 0; i < names.size(); ++i)
        labels.emplace(names[i], values[i]);
    return labels;
}

}  // namespace

void Counter::Inc(double by) const {
    impl_->Increment(by);
}
double Counter::Value() const {
    return impl_->Value();
}

void Gauge::Set(double value) {
    impl_->Set(value);
}
void Gauge::Inc(double by) {
    impl_->Increment(by);
}
void Gauge::Dec(double by) {
    impl_->Decrement(by);
}
double Gauge::Value() const {
    return impl_->Value();
}

void Histogram::Observe(double value) {
    impl_->Observe(value);
}
void Histogram::ObserveBuckets(const std::vector<double>& bucket_counts, double sum) {
    impl_->ObserveMultiple(bucket_counts, sum);
}
uint64_t Histogram::SampleCount() const {
    return impl_->Collect().histogram.sample_count;
}
double Histogram::SampleSum() const {
    return impl_->Collect().histogram.sample_sum;
}

Counter CounterFamily::WithLabelValues(const std::vector<std::string>& values) const {
    try {
        return Counter(&impl_->Add(ToLabels(name_, label_names_, values)));
    } catch (const std::exception& e) {
        Abort(name_, e.what());
    }
}

Gauge GaugeFamily::WithLabelValues(const std::vector<std::string>& values) const {
    try {
        return Gauge(&impl_->Add(ToLabels(name_, label_names_, values)));
    } catch (const std::exception& e) {
        Abort(name_, e.what());
    }
}

void GaugeFamily::Remove(const std::vector<std::string>& values) const {
    try {
        const prometheus::Labels labels = ToLabels(name_, label_names_, values);
        if (impl_->Has(labels))
            impl_->Remove(&impl_->Add(labels));
    } catch (const std::exception& e) {
        Abort(name_, e.what());
    }
}

Histogram HistogramFamily::WithLabelValues(const std::vector<std::string>& values) const {
    try {
        return Histogram(&impl_->Add(ToLabels(name_, label_names_, values), buckets_));
    } catch (const std::exception& e) {
        Abort(name_, e.what());
    }
}

std::vector<double> ExponentialBuckets(double start, double factor, int count) {
    std::vector<double> buckets;
    buckets.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i, start *= factor)
        buckets.push_back(start);
    return buckets;
}

std::vector<double> LinearBuckets(double start, double width, int count) {
    std::vector<double> buckets;
    buckets.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i)
        buckets.push_back(start + width * i);
    return buckets;
}

}  // namespace ctrl::metrics
