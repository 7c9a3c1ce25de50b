import { NumberInput, type NumberInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A member's own credit limit (one member's, or the same for several): 0 up to the contract's maximum, thousands separated. */
export function MemberQuotaInput(props: Omit<NumberInputProps, 'label' | 'min' | 'max'>) {
  const { t } = useTranslation('adminMembers');
  return <NumberInput label={t('field.credit_quota')} min={0} max={1e12} thousandSeparator="," allowNegative={false} {...props} />;
}
