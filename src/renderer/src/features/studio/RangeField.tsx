import { Group, NumberInput, Slider, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

interface RangeFieldProps {
  label: string;
  /** Says the range too (the slider's ends are not read out). */
  description: string;
  range: { min: number; max: number; step: number };
  value: number;
  onChange: (value: number) => void;
  error?: ReactNode;
  testId: string;
}

/** A number with its range (temperature, top_p): a slider to drag and a box to type, kept in step. */
export function RangeField({ label, description, range, value, onChange, error, testId }: RangeFieldProps) {
  const decimals = String(range.step).split('.')[1]?.length ?? 0;
  return (
    <Stack gap={6}>
      <Group gap="md" wrap="nowrap" align="flex-end">
        <NumberInput
          label={label}
          description={description}
          min={range.min}
          max={range.max}
          step={range.step}
          decimalScale={decimals}
          clampBehavior="strict"
          value={value}
          onChange={(next) => typeof next === 'number' && onChange(next)}
          error={error}
          w={200}
          data-testid={testId}
        />
        <Slider
          flex={1}
          mb={10}
          min={range.min}
          max={range.max}
          step={range.step}
          value={value}
          onChange={onChange}
          thumbLabel={label}
          label={(current) => current.toFixed(decimals)}
        />
      </Group>
    </Stack>
  );
}
