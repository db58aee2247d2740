import { isUuid } from '@platform/kit';
import type { Page, Queryable } from '@platform/kit';
import { ADDRESS_FIELDS, DOCUMENT_TYPES, type Address, type Customer, type DocumentType, type ListFilters } from '../domain/customer';

interface CustomerRow {
  id: string;
  client_id: string;
  name: string;
  email: string;
  phone_number: string;
  document_type: string;
  document_number: string;
  document_country: string;
  address: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

const COLUMNS = `id, client_id, name, email, phone_number, document_type, document_number, document_country, address,
  created_at, updated_at, deleted_at`;

function addressOf(raw: Record<string, unknown> | null): Address | null {
  if (!raw) return null;
  const address: Address = {};
  for (const field of ADDRESS_FIELDS) {
    const value = raw[field];
    if (typeof value === 'string') address[field] = value;
  }
  return Object.keys(address).length > 0 ? address : null;
}

function toCustomer(row: CustomerRow): Customer {
  if (!(DOCUMENT_TYPES as readonly string[]).includes(row.document_type)) {
    throw new Error(`customer ${row.id} has unknown document type ${row.document_type}`);
  }
  return {
    id: row.id,
    clientId: row.client_id,
    name: row.name,
    email: row.email,
    phoneNumber: row.phone_number,
    document: { type: row.document_type as DocumentType, number: row.document_number, country: row.document_country },
    address: addressOf(row.address),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
  };
}

export interface CustomerPage {
  items: Customer[];
  totalItems: number;
}

/** SQL for the customer aggregate. Every query is scoped by client id; deleted customers are never returned. */
export interface CustomerStore {
  insert(db: Queryable, customer: Customer): Promise<Customer>;
  findById(db: Queryable, clientId: string, id: string, options?: { forUpdate?: boolean }): Promise<Customer | null>;
  list(db: Queryable, clientId: string, filters: ListFilters, page: Page): Promise<CustomerPage>;
  emailInUse(db: Queryable, clientId: string, email: string): Promise<boolean>;
  documentInUse(db: Queryable, clientId: string, type: DocumentType, number: string): Promise<boolean>;
  /** Serialises, until the transaction ends, every create that claims this e-mail or document for this client. */
  lockIdentity(tx: Queryable, clientId: string, identity: { email: string; documentType: DocumentType; documentNumber: string }): Promise<void>;
  update(tx: Queryable, customer: Customer): Promise<Customer | null>;
  softDelete(tx: Queryable, clientId: string, id: string, at: Date): Promise<Customer | null>;
}

export function createCustomerStore(): CustomerStore {
  return {
    async insert(db, c) {
      const { rows } = await db.query<CustomerRow>(
        `INSERT INTO customers (id, client_id, name, email, phone_number, document_type, document_number, document_country,
           address, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         RETURNING ${COLUMNS}`,
        [
          c.id,
          c.clientId,
          c.name,
          c.email,
          c.phoneNumber,
          c.document.type,
          c.document.number,
          c.document.country,
          c.address ? JSON.stringify(c.address) : null,
          c.createdAt,
          c.updatedAt,
        ],
      );
      return toCustomer(rows[0]!);
    },

    async findById(db, clientId, id, options = {}) {
      if (!isUuid(id)) return null;
      const { rows } = await db.query<CustomerRow>(
        `SELECT ${COLUMNS} FROM customers WHERE client_id = $1 AND id = $2 AND deleted_at IS NULL${options.forUpdate ? ' FOR UPDATE' : ''}`,
        [clientId, id],
      );
      return rows[0] ? toCustomer(rows[0]) : null;
    },

    async list(db, clientId, filters, page) {
      if (filters.id !== undefined && !isUuid(filters.id)) return { items: [], totalItems: 0 };
      const values: unknown[] = [clientId];
      const where = ['client_id = $1', 'deleted_at IS NULL'];
      const add = (column: string, value: string | undefined) => {
        if (value === undefined) return;
        values.push(value);
        where.push(`${column} = $${values.length}`);
      };
      add('id', filters.id);
      add('document_type', filters.documentType);
      add('document_number', filters.documentNumber);
      add('email', filters.email);
      const condition = where.join(' AND ');
      const counted = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM customers WHERE ${condition}`, values);
      const direction = page.direction === 'ASC' ? 'ASC' : 'DESC';
      const { rows } = await db.query<CustomerRow>(
        `SELECT ${COLUMNS} FROM customers WHERE ${condition}
         ORDER BY created_at ${direction}, seq ${direction}
         LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
        [...values, page.limit, page.offset],
      );
      return { items: rows.map(toCustomer), totalItems: counted.rows[0]?.total ?? 0 };
    },

    async emailInUse(db, clientId, email) {
      const { rows } = await db.query(
        'SELECT 1 FROM customers WHERE client_id = $1 AND email = $2 AND deleted_at IS NULL LIMIT 1',
        [clientId, email],
      );
      return rows.length > 0;
    },

    async documentInUse(db, clientId, type, number) {
      const { rows } = await db.query(
        'SELECT 1 FROM customers WHERE client_id = $1 AND document_type = $2 AND document_number = $3 AND deleted_at IS NULL LIMIT 1',
        [clientId, type, number],
      );
      return rows.length > 0;
    },

    async lockIdentity(tx, clientId, identity) {
      // Always the e-mail first, then the document: two creates never hold one each while waiting for the other.
      await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`customer-email:${clientId}:${identity.email}`]);
      await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `customer-document:${clientId}:${identity.documentType}:${identity.documentNumber}`,
      ]);
    },

    async update(tx, c) {
      const { rows } = await tx.query<CustomerRow>(
        `UPDATE customers SET name = $3, phone_number = $4, address = $5, updated_at = $6
         WHERE client_id = $1 AND id = $2 AND deleted_at IS NULL
         RETURNING ${COLUMNS}`,
        [c.clientId, c.id, c.name, c.phoneNumber, c.address ? JSON.stringify(c.address) : null, c.updatedAt],
      );
      return rows[0] ? toCustomer(rows[0]) : null;
    },

    async softDelete(tx, clientId, id, at) {
      if (!isUuid(id)) return null;
      const { rows } = await tx.query<CustomerRow>(
        `UPDATE customers SET deleted_at = $3 WHERE client_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING ${COLUMNS}`,
        [clientId, id, at],
      );
      return rows[0] ? toCustomer(rows[0]) : null;
    },
  };
}
