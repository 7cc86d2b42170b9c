"""Local and shuffle models: local randomizers, analyzers, amplification by shuffling."""

import numpy as np

from dpsens import (
    Data, Integer, L1, L_inf, Local, Messages, MetricMatrix, MetricVector, Priv, Real, Static,
    kary_randomized_response, laplace_mechanism, local_laplace, map_rows, randomized_response,
    shuffle,
)


def rr(bit: Data, eps: Static[float]) -> Local[Data]:  # expect: bit=(eps, 0); eps=static; accounting=sequential; assumes=eps > 0
    return randomized_response(eps, bit)


def krr(value: Integer) -> Local[int]:  # expect: value=(3/2, 0); accounting=sequential
    return kary_randomized_response(1.5, value, 5)


def clamped_real(x: Real) -> Local[Real]:  # expect: x=(1, 0); accounting=sequential
    return local_laplace(1.0, x, 0.0, 1.0)


def clamped_data(x: Data) -> Local[Real]:  # expect: x=(1/2, 0); accounting=sequential
    return local_laplace(0.5, x, -3.0, 3.0)


# A local randomizer's ε₀ holds for any two records (local DP), not for records 1 apart
# (review33: these were 1/10, 1 and 1): local_laplace's clamp caps the cost at ε for
# any x; Laplace on an integer record has no finite ε₀; an (L1, Data) record of n
# entries is n moves from any other (group privacy).
def wide_clamp(x: Real) -> Local[Real]:  # expect: x=(1, 0); accounting=sequential
    return local_laplace(1.0, x, 0.0, 10.0)


def laplace_of_an_integer_record(value: Integer) -> Local[Real]:  # expect: value=(inf, 0); accounting=sequential  # E: DPS409
    return laplace_mechanism(1.0, 1.0, value)


def laplace_of_a_record_of_bits(record: MetricVector[L1, Data]) -> Local[Real]:  # expect: record=(len(record), 0); accounting=sequential
    return laplace_mechanism(1.0, 1.0, float(np.sum(np.clip(record, 0.0, 1.0))))


def local_model(bits: MetricVector[L1, Data]) -> Priv[MetricVector[L1, Real]]:  # expect: bits=(1, 0); accounting=sequential
    return map_rows(lambda b: rr(b, 1.0), bits)


def shuffle_model(bits: MetricVector[L1, Data]) -> Priv[MetricVector[L1, Real]]:  # expect: bits=(log(1 + (1 - exp(-1))*(8*E/len(bits) + 8*exp(1/2)*sqrt(log(400000))/sqrt(len(bits)))/(1 + exp(-1)/(1 + 8*E/len(bits) + 8*exp(1/2)*sqrt(log(400000))/sqrt(len(bits))))), 1/100000); accounting=sequential; assumes=1 <= log(len(bits)/(16*log(400000)))
    return shuffle(lambda b: rr(b, 1.0), bits)


def shuffle_rows(m: MetricMatrix[L_inf, Data]) -> Priv[MetricVector[L1, Real]]:  # expect: m=(log(1 + (1 - exp(-1/2))*(8*exp(1/2)/rows(m) + 8*exp(1/4)*sqrt(log(400000))/sqrt(rows(m)))/(1 + exp(-1/2)/(1 + 8*exp(1/2)/rows(m) + 8*exp(1/4)*sqrt(log(400000))/sqrt(rows(m))))), 1/100000); accounting=sequential; assumes=1/2 <= log(rows(m)/(16*log(400000)))
    return shuffle(lambda r: local_laplace(0.5, r[0], 0.0, 1.0), m)


def leaky_randomizer(bits: MetricVector[L1, Data]) -> Priv[MetricVector[L1, Real]]:  # expect: bits=(inf, inf); accounting=sequential
    return shuffle(lambda b: b, bits)  # E: DPS403


def analyzer(reports: Messages[Data], eps: Static[float]) -> Real:  # expect: reports=static; eps=static
    return float(np.sum(reports)) / len(reports)


def cheating_analyzer(reports: Messages[Data], data: MetricVector[L1, Real]) -> Real:  # expect: reports=static; data=1  # E: DPS601
    return float(np.sum(reports)) + float(np.sum(data))


# review35: symmetric unary encoding (basic RAPPOR) flips each bit of the one-hot value
# by RR(1/2): two values differ in two bits, so ε₀ = 1; the partition loop's two cells
# were taken as one capped charge (1/2), and shuffle amplified from 1/2.
def unary_encoding(value: Data) -> Local[Real]:  # expect: value=(1, 0); accounting=sequential
    report = 0.0
    for j in range(4):
        report = report * 2.0 + randomized_response(0.5, value == j)
    return report


def shuffled_unary_encoding(values: MetricVector[L1, Data]) -> Priv[MetricVector[L1, Real]]:  # expect: values=(log(1 + (1 - exp(-1))*(8*E/len(values) + 8*exp(1/2)*sqrt(log(400000))/sqrt(len(values)))/(1 + exp(-1)/(1 + 8*E/len(values) + 8*exp(1/2)*sqrt(log(400000))/sqrt(len(values))))), 1/100000); accounting=sequential; assumes=1 <= log(len(values)/(16*log(400000)))
    return shuffle(unary_encoding, values)
