import type { StatusTable } from '../kit/tables';

/**
 * API Pix (BCB, v2.9.0), schema `CobrancaStatus`: the status of a cob's record. An ATIVA cob whose
 * `calendario.criacao + expiracao` has passed can no longer be paid, though its record stays ATIVA: the
 * transformer reads it as canceled (toQueryResult).
 */
export const COB_STATUS: StatusTable = {
  ATIVA: 'pending',
  CONCLUIDA: 'authorized',
  REMOVIDA_PELO_USUARIO_RECEBEDOR: 'canceled',
  REMOVIDA_PELO_PSP: 'canceled',
};

/**
 * Schema `Devolucao.status`: a refund of a received Pix. DEVOLVIDO counts in the refunded amount (the whole Pix
 * refunded makes the charge voided); EM_PROCESSAMENTO keeps the charge refund_pending; NAO_REALIZADO gave nothing back.
 */
export const DEVOLUCAO_STATUS: StatusTable = {
  EM_PROCESSAMENTO: 'refund_pending',
  DEVOLVIDO: 'voided',
  NAO_REALIZADO: 'authorized',
};
