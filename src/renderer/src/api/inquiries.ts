import { inquiriesApi, type InquiryBody } from '../../../shared/api';
import { callEndpoint } from './client';

export function sendInquiry(body: InquiryBody) {
  return callEndpoint(inquiriesApi.sendInquiry, { body });
}
