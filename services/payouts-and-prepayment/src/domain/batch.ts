/* Payment batches (what one receiver is paid on one date) and their orders (each receivable or debit in it). */

export type BatchStatus = 'pending' | 'paid' | 'failed' | 'offset';

export interface PaymentBatch {
  id: string;
  clientId: string;
  receiver: string | null;
  paymentDate: string;
  status: BatchStatus;
  paymentMethod: string;
  amount: number;
  feeAmount: number;
  refundAmount: number;
  finalBalance: number;
  attempts: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface PaymentOrder {
  id: string;
  clientId: string;
  batchId: string;
  chargeId: string;
  receiver: string | null;
  receivableId: string | null;
  amount: number;
  grossAmount: number;
  totalFeeAmount: number;
  installment: number;
  totalInstallments: number;
  paymentMethod: string;
  type: 'authorization' | 'void' | 'charge_back';
  paymentScheduledAt: string;
  createdAt: Date;
}
